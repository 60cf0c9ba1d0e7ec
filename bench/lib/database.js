'use strict';
/**
 * A throw-away, migrated database for a bench, with a plain pg client (for seeding and EXPLAIN) and
 * a small Prisma client; all three are undone by the bench's cleanups (bench/lib/cleanup.js), the
 * database itself unless `keep` (a bench that can measure again on what it seeded).
 */
const pgLib = require('pg');
const { createTestDatabase } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');

async function openBenchDatabase(prefix, cleanups, { keep = false } = {}) {
  const db = await createTestDatabase(prefix);
  if (!keep) cleanups.push(() => db.drop());
  const pg = new pgLib.Client({ connectionString: db.url });
  await pg.connect();
  cleanups.push(() => pg.end());
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  cleanups.push(() => prisma.$disconnect());
  return { db, pg, prisma };
}

module.exports = { openBenchDatabase };
