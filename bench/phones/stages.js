#!/usr/bin/env node
'use strict';
/**
 * Where ingestion's time goes, stage by stage, in this one process (no services running): the code
 * the chats consumer and the phones session run, next to the bare statements it is made of and
 * one-statement alternatives, each on 4,000 messages; wall time, this process's CPU and the
 * Postgres backends' CPU per 1,000 messages (median of BENCH_REPEAT after a warm-up).
 * Usage: npm run build && node bench/phones/stages.js   (fresh database and namespace, removed at the end)
 */
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Pool } = require('pg');
const { connect } = require('nats');
const { createTestDatabase, createOrg, randomDigits, testEnv } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { ensureStreams, streamNames } = require('@mapi/events');
const { cpuSeconds, loadAverage } = require('./lib/procs');
const { chatsCases } = require('./lib/chats-cases');
const { phonesCases } = require('./lib/phones-cases');
const { buildInfo } = require('./lib/build-info');

const TOTAL = 4000;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (v) => v.toFixed(1).padStart(7);

async function time(name, prepare, pgPids) {
  const walls = [];
  const cpus = [];
  const pgs = [];
  for (let i = 0; i <= REPEAT; i++) {
    const run = await prepare();
    const pids = await pgPids();
    const pg0 = pids.map((p) => cpuSeconds(p) ?? 0);
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run();
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    const pg = pids.reduce((a, p, k) => a + ((cpuSeconds(p) ?? pg0[k]) - pg0[k]), 0);
    if (i === 0) continue; // warm-up
    walls.push((wall * 1000) / TOTAL);
    cpus.push(((c.user + c.system) / 1000) * (1000 / TOTAL));
    pgs.push(pg * 1000 * (1000 / TOTAL));
  }
  const r = { name, wall_ms: median(walls), node_cpu_ms: median(cpus), pg_cpu_ms: median(pgs) };
  console.log(`| ${name} | ${f(r.wall_ms)} | ${f(r.node_cpu_ms)} | ${f(r.pg_cpu_ms)} |`);
  return r;
}

async function main() {
  const load = { start: loadAverage() };
  console.log(`load average ${load.start.join(' ')}; HEAD ${buildInfo().head}`);
  const db = await createTestDatabase('mapi_bench_stages');
  const prisma = createPrismaClient({ url: db.url, poolSize: 4 });
  const pool = new Pool({ connectionString: db.url, max: 2 });
  const nc = await connect({ servers: testEnv.natsUrl(), name: 'bench-phones-stages' });
  const namespace = `bench-stages-${randomBytes(4).toString('hex')}`;
  let phones;
  try {
    await ensureStreams(nc, namespace);
    const org = await createOrg(prisma, { plan: 'enterprise' });
    const digits = randomDigits();
    const mkPhone = () => ({
      org_id: org.id,
      phone_id: `phone-${randomBytes(6).toString('hex')}`,
      org_phone: `${digits}@c.us`,
      chats: Array.from({ length: 200 }, () => `${randomDigits()}@c.us`),
    });
    const pgPids = async () =>
      (await pool.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database()')).rows.map((r) => r.pid);
    const deps = { prisma, pool, nc, namespace, mkPhone, total: TOTAL, dbUrl: db.url };
    phones = phonesCases(deps);
    const results = [];
    console.log('\n| stage (per 1,000 messages) | wall ms | node CPU ms | postgres CPU ms |\n|---|---|---|---|');
    for (const [name, prepare] of Object.entries(chatsCases(deps))) results.push(await time(name, prepare, pgPids));
    for (const [name, prepare] of Object.entries(phones.cases)) results.push(await time(name, prepare, pgPids));
    load.end = loadAverage();
    console.log(`\nload average at the end ${load.end.join(' ')}`);
    const out = path.join(__dirname, 'results', `stages-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(
      out,
      JSON.stringify({ build: buildInfo(), load_average: load, repeat: REPEAT, messages_per_case: TOTAL, results }, null, 2),
    );
    console.log(`results: ${out}`);
  } finally {
    const jsm = await nc.jetstreamManager();
    for (const s of Object.values(streamNames(namespace))) await jsm.streams.delete(s).catch(() => undefined);
    await nc.drain();
    await phones?.close();
    await pool.end();
    await prisma.$disconnect();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
