// The analytics rebuild, an operator's command (docs/services/analytics.md, "Rebuild"):
// `node apps/analytics/dist/rebuild.js --org <uuid> --from <ISO> --to <ISO>` with DATABASE_URL set.
import { runRebuildCli } from '@mapi/analytics-feature';
import { createPrismaClient } from '@mapi/db';

const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/mapi';

void runRebuildCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  openDatabase: () => createPrismaClient({ url: process.env.DATABASE_URL || DEFAULT_DATABASE_URL, poolSize: 2 }),
}).then((code) => {
  process.exitCode = code;
});
