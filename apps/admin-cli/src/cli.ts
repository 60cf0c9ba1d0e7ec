import { parseArgs } from 'node:util';
import { AdminError, createAdminUseCases } from '@mapi/admin-feature';
import type { PrismaClient } from '@mapi/db';
import { COMMANDS, helpText, type Values } from './commands';
import { describeError } from './describe-error';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Opened only for commands that need the database; disconnected afterwards. */
  openDatabase(): PrismaClient;
  /** The whole of standard input; called only by commands that read it (--password-stdin). */
  readStdin(): Promise<string>;
  /** Progress for a person while a long command runs (stderr). */
  progress?(line: string): void;
}

/** Runs one admin command; returns the exit code (1 with a one-line message on any error). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    await dispatch(argv, io);
    return 0;
  } catch (error) {
    io.err(`error: ${describeError(error)}`);
    return 1;
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<void> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new AdminError('no command given (run "help" for the list)');
  if (['help', '--help', '-h'].includes(name)) {
    const commands = Object.entries(COMMANDS).map(([command, c]) => ({ command, usage: c.usage, summary: c.summary }));
    io.out(rest.includes('--json') ? JSON.stringify({ commands }) : helpText());
    return;
  }
  if (!Object.hasOwn(COMMANDS, name)) throw new AdminError(`unknown command "${name}" (run "help" for the list)`);
  const values = parse(name, rest);
  const prisma = io.openDatabase();
  try {
    const output = await COMMANDS[name].run(values, createAdminUseCases(prisma), {
      readStdin: io.readStdin,
      progress: values.json ? undefined : io.progress,
    });
    io.out(values.json ? JSON.stringify(output.json) : output.text);
  } finally {
    await prisma.$disconnect();
  }
}

function parse(name: string, args: string[]): Values {
  const command = COMMANDS[name];
  try {
    return parseArgs({ args, options: { ...command.options, json: { type: 'boolean' } }, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // Node's messages run on with advice about "--"; the first sentence is the useful part.
    const text = (error as { message?: unknown } | null)?.message;
    const message = typeof text === 'string' ? text.split('. ')[0] : String(error);
    throw new AdminError(`${message.replace(/\.$/, '')} (usage: ${command.usage})`);
  }
}
