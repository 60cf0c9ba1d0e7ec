#!/usr/bin/env node
'use strict';
// CPU per small hot-read query in one process (libs/db's queryRows): Prisma $queryRaw vs queryRows (the same
// Prisma.sql on the same pg pool), 10 in flight, 3 rounds. Usage: bash scripts/build.sh && node bench/lib/query-cost.js
const path = require('node:path');
process.chdir(path.join(__dirname, '..', '..'));
const { createPrismaClient, queryRows, Prisma } = require('@mapi/db');
const url = process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/mapi';
(async () => {
  const prisma = createPrismaClient({ url, poolSize: 6 });
  const sql = () =>
    Prisma.sql`SELECT row_to_json(t)::text AS j FROM (SELECT ${'x'.repeat(1400)}::text AS body, now() AS ts, ${42}::int AS n) t WHERE ${1} = 1 OFFSET ${0} LIMIT ${1}`;
  const ways = { $queryRaw: () => prisma.$queryRaw(sql()), queryRows: () => queryRows(prisma, sql()) };
  for (let r = 0; r < 3; r++)
    for (const [name, q] of Object.entries(ways)) {
      const n = 4000;
      let left = n;
      const t0 = process.cpuUsage();
      const w0 = Date.now();
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (left-- > 0) await q();
        }),
      );
      const u = process.cpuUsage(t0);
      console.log(
        `${name.padEnd(10)} ${((u.user + u.system) / n).toFixed(1)} µs CPU per query (node process), ${(n / ((Date.now() - w0) / 1000)).toFixed(0)} q/s`,
      );
    }
  await prisma.$disconnect();
})();
