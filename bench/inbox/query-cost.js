#!/usr/bin/env node
'use strict';
/**
 * Postgres CPU per GET /tickets page query (issue 17's aim), by way of sending it: the listing's SQL
 * as an unnamed statement (parsed and planned on every call, as pg does by default) against a named
 * one (parsed once per connection; Postgres may then keep a generic plan). 100,000 tickets of one
 * organization among others as bench/inbox/tickets.js seeds them; 10 queries in flight on a pool of 6,
 * CPU of the backends from /proc and of this process; 3 rounds, interleaved.
 * Usage: bash scripts/build.sh && node bench/inbox/query-cost.js   (BENCH_TICKETS, BENCH_QUERIES)
 */
const path = require('node:path');
const pgLib = require('pg');
const { createOrg, createPhone } = require('@mapi/testing');
const { openBenchDatabase } = require('../lib/database');
const { guardBench } = require('../lib/cleanup');
const { cpuSeconds } = require('../messages/procs');

process.chdir(path.join(__dirname, '..', '..'));
const TICKETS = Number(process.env.BENCH_TICKETS || 100_000);
const QUERIES = Number(process.env.BENCH_QUERIES || 4000);
const { cleanups, run } = guardBench(600_000);

const SQL = (extra) => `SELECT row_to_json(t)::text AS j FROM inbox_tickets t
  WHERE t.org_id = $1::uuid AND t.is_deleted = false ${extra}
  ORDER BY t.created_at DESC, t.ticket_id DESC OFFSET $2 LIMIT $3`;
const CASES = {
  filtered: { text: SQL('AND t.status = $4 AND t.assignee = $5'), values: (org) => [org, 0, 100, 'open', 'agent7@example.com'] },
  unfiltered: { text: SQL(''), values: (org) => [org, 0, 100] },
};

async function main() {
  const { db, pg, prisma } = await openBenchDatabase('mapi_bench_tickets_q', cleanups);
  const orgs = [];
  for (let k = 0; k < 3; k++) {
    const org = await createOrg(prisma, { name: `q${k}` });
    const phone = await createPhone(prisma, org.id);
    const n = k === 0 ? TICKETS : TICKETS / 20;
    await pg.query(
      `INSERT INTO inbox_tickets (ticket_id, org_id, phone_id, chat_id, subject, status, priority, assignee, labels, created_at, last_updated_at)
       SELECT gen_random_uuid(), $1::uuid, $2, (919800000000 + i % 5000)::text || '@c.us', 'Ticket ' || i,
              (ARRAY['open','inprogress','closed','archived'])[1 + i % 4], 1 + i % 4, 'agent' || ((i / 4) % 20) || '@example.com',
              CASE WHEN i % 7 = 0 THEN ARRAY['vip'] ELSE ARRAY[]::text[] END, now() - make_interval(secs => i), now() - make_interval(secs => i)
       FROM generate_series(1, $3::int) i`,
      [org.id, phone.phone_id, n],
    );
    orgs.push(org.id);
  }
  await pg.query('VACUUM ANALYZE inbox_tickets');
  const pool = new pgLib.Pool({ connectionString: db.url, max: 6 });
  cleanups.push(() => pool.end());
  await Promise.all(Array.from({ length: 6 }, () => pool.query('SELECT 1')));
  const backends = async () =>
    (await pg.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db.name])).rows.map((r) => r.pid);
  const ways = {
    unnamed: (c, org) => pool.query(c.text, c.values(org)),
    named: (c, org, name) => pool.query({ name, text: c.text, values: c.values(org) }),
  };
  for (let round = 0; round < 3; round++)
    for (const [caseName, c] of Object.entries(CASES))
      for (const [way, q] of Object.entries(ways)) {
        let left = QUERIES;
        const pids = await backends();
        const pg0 = pids.map(cpuSeconds);
        const self0 = process.cpuUsage();
        const t0 = Date.now();
        // mostly the big organization, every 10th query a small one (the plan must serve both)
        await Promise.all(
          Array.from({ length: 10 }, async () => {
            while (left-- > 0) await q(c, left % 10 ? orgs[0] : orgs[1 + (left % 2)], `tickets-${caseName}`);
          }),
        );
        const pgCpu = pids.reduce((s, pid, i) => s + (cpuSeconds(pid) - pg0[i]), 0);
        const self = process.cpuUsage(self0);
        console.log(
          `${caseName.padEnd(10)} ${way.padEnd(8)} postgres ${((pgCpu * 1e6) / QUERIES).toFixed(0)} µs/query, node ${((self.user + self.system) / QUERIES).toFixed(0)} µs/query, ${(QUERIES / ((Date.now() - t0) / 1000)).toFixed(0)} q/s`,
        );
      }
  for (const [caseName, c] of Object.entries(CASES)) {
    const client = await pool.connect();
    try {
      await client.query(`PREPARE p_${caseName} AS ${c.text}`);
      for (let i = 0; i < 6; i++)
        await client.query(
          `EXECUTE p_${caseName}(${c
            .values(orgs[0])
            .map((v) => `'${v}'`)
            .join(',')})`,
        );
      const plan = await client.query(
        `EXPLAIN EXECUTE p_${caseName}(${c
          .values(orgs[1])
          .map((v) => `'${v}'`)
          .join(',')})`,
      );
      console.log(
        `${caseName}: plan after 6 executions (a small organization):\n${plan.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`,
      );
    } finally {
      client.release();
    }
  }
}

run(main);
