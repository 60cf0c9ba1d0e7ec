import { parseArgs } from 'node:util';
import type { PrismaClient } from '@mapi/db';
import { rebuildPeriod } from './rebuild-period';

const USAGE = 'usage: node apps/analytics/dist/rebuild.js --org <org uuid> --from <ISO date-time> --to <ISO date-time>';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The operator's rebuild command: recomputes an organization's analytics of a period from the stored
 * messages (rebuildPeriod) and prints what it counted as one JSON line. Returns the exit code.
 */
export async function runRebuildCli(
  argv: string[],
  io: { out: (line: string) => void; err: (line: string) => void; openDatabase: () => PrismaClient },
): Promise<number> {
  let values: { org?: string; from?: string; to?: string };
  try {
    values = parseArgs({ args: argv, options: { org: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' } } }).values;
  } catch (err) {
    io.err(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { org, from, to } = values;
  if (
    !org ||
    !UUID.test(org) ||
    !from ||
    !to ||
    Number.isNaN(Date.parse(from)) ||
    Number.isNaN(Date.parse(to)) ||
    Date.parse(from) >= Date.parse(to)
  ) {
    io.err(USAGE);
    return 2;
  }
  const prisma = io.openDatabase();
  try {
    io.out(JSON.stringify(await rebuildPeriod(prisma, org, from, to)));
    return 0;
  } catch (err) {
    io.err(`rebuild failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await prisma.$disconnect();
  }
}
