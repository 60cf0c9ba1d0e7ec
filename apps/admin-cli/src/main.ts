// The self-hoster's stand-in for the dashboard (spec part 5): `node apps/admin-cli/dist/main.js help`.
import { createPrismaClient } from '@mapi/db';
import { runCli } from './cli';

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/mapi';

runCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  openDatabase: () => createPrismaClient({ url: process.env.DATABASE_URL || DEFAULT_DATABASE_URL, poolSize: 2 }),
  progress: (line) => process.stderr.write(process.stderr.isTTY ? `\r\x1b[2K${line}` : `${line}\n`),
  readStdin: async () => {
    let text = '';
    process.stdin.setEncoding('utf8');
    for await (const chunk of process.stdin) text += chunk;
    return text;
  },
}).then((code) => {
  process.exitCode = code;
});
