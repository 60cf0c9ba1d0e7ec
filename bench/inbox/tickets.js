#!/usr/bin/env node
'use strict';
/**
 * Benchmark of GET /v1/tickets (issue 17 aim: over 100,000 tickets of one organization, a 100-ticket
 * page filtered by status and assignee, p99 < 50 ms at 10 connections). Tickets are seeded with SQL
 * (generate_series: 4 statuses, 20 assignees, 3 phones, 5,000 chats, labels on every 7th); gateway and
 * inbox run as processes over NATS; autocannon at 1 and BENCH_CONNECTIONS connections. The unfiltered
 * 100-ticket page is the baseline the filtered cases are quoted against (same run, same processes).
 * EXPLAIN (ANALYZE) of the filtered page query; CPU per request of each process on the path (/proc, at
 * BENCH_CONNECTIONS). Writes bench/results/tickets-<time>.json.
 *
 * Usage: bash scripts/build.sh && node bench/inbox/tickets.js
 * Knobs (env): BENCH_TICKETS (100000), BENCH_CONNECTIONS (10), BENCH_DURATION (10 s), BENCH_WARMUP (2 s),
 *   BENCH_POOL_SIZE (10), BENCH_ONLY_CASES (indexes into CASES, e.g. "0,1"), BENCH_BEFORE_ROOT (a built checkout
 *   of an earlier commit: its gateway and inbox run beside this tree's, each case measured on both),
 *   BENCH_ROUNDS (1: each case measured this many times, the paths' order reversed every time; the
 *   summary gives every round and the median), BENCH_SKIP_C1=1 (no 1-connection measurement),
 *   BENCH_PG_LOG=<the server's log file> (log_statement=all on the bench database: prints the statements
 *   one request of each case runs, then stops; needs the log readable), BENCH_CPU_PROF=1 (V8 CPU profiles of
 *   every gateway and inbox process, summarized at the end by bench/lib/cpuprofile-summary.js).
 */
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const { randomBytes } = require('node:crypto');
const autocannon = require('autocannon');
const { freePort, testEnv, createOrg, createPhone, createToken } = require('@mapi/testing');
const { startNode, waitReady, stopAll, waitIdle, cpuMeter, pidsByComm } = require('../messages/procs');
const { openBenchDatabase } = require('../lib/database');
const { guardBench } = require('../lib/cleanup');
const { summarizeProfiles } = require('../lib/cpuprofile-summary');

const ROOT = path.join(__dirname, '..', '..');
const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  tickets: num('BENCH_TICKETS', 100_000),
  connections: num('BENCH_CONNECTIONS', 10),
  duration: num('BENCH_DURATION', 10),
  warmup: num('BENCH_WARMUP', 2),
  poolSize: num('BENCH_POOL_SIZE', 10),
  beforeRoot: process.env.BENCH_BEFORE_ROOT || '',
  only: process.env.BENCH_ONLY_CASES ? process.env.BENCH_ONLY_CASES.split(',').map(Number) : null,
  rounds: num('BENCH_ROUNDS', 1),
  skipC1: process.env.BENCH_SKIP_C1 === '1',
  pgLog: process.env.BENCH_PG_LOG || '',
  cpuProf: process.env.BENCH_CPU_PROF === '1',
};
const ALL_CASES = [
  ['baseline: unfiltered', '/tickets?limit=100'],
  ['status + assignee', '/tickets?limit=100&status=open&assignee=agent7@example.com'],
  ['status + assignee, offset 1000', '/tickets?limit=100&offset=1000&status=open&assignee=agent7@example.com'],
  ['status only', '/tickets?limit=100&status=inprogress'],
  ['label', '/tickets?limit=100&label=vip'],
  ['2000 page, status', '/tickets?limit=2000&status=closed'],
];
const CASES = CFG.only ? ALL_CASES.filter((_, i) => CFG.only.includes(i)) : ALL_CASES;
const log = (...a) => console.log(...a);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
let active;
const { cleanups, run } = guardBench(900_000, { onAbort: () => active?.stop() });
const cannon = (opts) =>
  new Promise((resolve, reject) => {
    active = autocannon({ ...opts, timeout: 30 }, (err, r) => ((active = undefined), err ? reject(err) : resolve(r)));
  });

async function seed(pg, prisma) {
  const org = await createOrg(prisma, { name: 'Tickets bench' });
  const phones = [];
  for (let k = 0; k < 3; k++) phones.push(await createPhone(prisma, org.id));
  const token = await createToken(prisma, org.id);
  await pg.query('SET synchronous_commit = off');
  await pg.query(
    `INSERT INTO inbox_tickets (ticket_id, org_id, phone_id, chat_id, subject, status, priority, assignee, labels, created_at, last_updated_at)
     SELECT gen_random_uuid(), $1::uuid, ($2::text[])[1 + i % 3], (919800000000 + i % 5000)::text || '@c.us', 'Ticket ' || i,
            (ARRAY['open','inprogress','closed','archived'])[1 + i % 4], 1 + i % 4, 'agent' || ((i / 4) % 20) || '@example.com',
            CASE WHEN i % 7 = 0 THEN ARRAY['vip'] ELSE ARRAY[]::text[] END,
            now() - make_interval(secs => i), now() - make_interval(secs => i)
     FROM generate_series(1, $3::int) i`,
    [org.id, phones.map((p) => p.phone_id), CFG.tickets],
  );
  await pg.query('VACUUM ANALYZE inbox_tickets');
  return { org, token };
}

async function main() {
  log(
    `tickets bench: ${CFG.tickets.toLocaleString('en')} tickets; ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const { db, pg, prisma } = await openBenchDatabase('mapi_bench_tickets', cleanups);
  const t = Date.now();
  const { org, token } = await seed(pg, prisma);
  log(`seeded in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const { rows: plan } = await pg.query(
    `EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM inbox_tickets WHERE org_id = $1::uuid AND is_deleted = false AND status = 'open'
       AND assignee = 'agent7@example.com' ORDER BY created_at DESC, ticket_id DESC LIMIT 100`,
    [org.id],
  );
  log(`\nfiltered page query, EXPLAIN ANALYZE:\n${plan.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);

  if (CFG.pgLog) await pg.query(`ALTER DATABASE ${db.name} SET log_statement = 'all'`);
  const namespace = `bench-${randomBytes(4).toString('hex')}`;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: String(CFG.poolSize),
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    RATE_LIMIT_PER_SECOND: '1000000',
  };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.NODE_OPTIONS;
  cleanups.push(() => stopAll());
  const logDir = path.join(ROOT, 'bench/results', `tickets-logs-${stamp}`);
  fs.mkdirSync(logDir, { recursive: true });
  const pgBackends = async () =>
    (await pg.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db.name])).rows.map((r) => r.pid);
  /** gateway + inbox of the tree at `root`, in their own NATS namespace. */
  const startPath = async (name, root, ns) => {
    const [gwPort, healthPort] = [await freePort(), await freePort()];
    const suffix = name === 'now' ? '' : `-${name}`;
    const nodeArgs = CFG.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', path.join(logDir, `prof-${name}`)] : [];
    const inbox = startNode(`inbox${suffix}`, path.join(root, 'apps/inbox/dist/main.js'), {
      cwd: root,
      nodeArgs,
      env: { ...env, NAMESPACE: ns, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' },
      logFile: path.join(logDir, `inbox${suffix}.log`),
    });
    const gateway = startNode(`api-gateway${suffix}`, path.join(root, 'apps/api-gateway/dist/main.js'), {
      cwd: root,
      nodeArgs,
      env: { ...env, NAMESPACE: ns, PORT: String(gwPort), HOST: '127.0.0.1' },
      logFile: path.join(logDir, `api-gateway${suffix}.log`),
    });
    await Promise.all([
      waitReady(inbox, `http://127.0.0.1:${healthPort}/health/ready`),
      waitReady(gateway, `http://127.0.0.1:${gwPort}/health/ready`),
    ]);
    const meter = cpuMeter({
      'api-gateway': () => [gateway.child.pid],
      inbox: () => [inbox.child.pid],
      'nats-server': () => pidsByComm('nats-server'),
      'redis-server': () => pidsByComm('redis-server'),
      postgres: pgBackends,
    });
    return {
      name,
      port: gwPort,
      pids: () => [inbox.child.pid, gateway.child.pid],
      meter,
      procs: { [`api-gateway${suffix}`]: gateway, [`inbox${suffix}`]: inbox },
    };
  };
  const paths = [await startPath('now', ROOT, namespace)];
  if (CFG.beforeRoot) paths.push(await startPath('before', CFG.beforeRoot, `${namespace}-before`));
  const headers = { authorization: `Bearer ${token.token}` };

  const results = [];
  let measuringFrom;
  for (let round = 0; round < CFG.rounds; round++)
    for (const [i, [name, c]] of CASES.entries()) {
      const row = { name: CFG.rounds > 1 ? `${name} (round ${round + 1})` : name, case: c, round };
      // the order alternates by case and by round, so neither path always runs first
      for (const p of (i + round) % 2 ? [...paths].reverse() : paths) {
        const url = `http://127.0.0.1:${p.port}/v1${c}`;
        const probe = await fetch(url, { headers });
        const text = await probe.text();
        if (probe.status !== 200) throw new Error(`${p.name} ${c}: ${probe.status} ${text.slice(0, 300)}`);
        const body = JSON.parse(text);
        if (row.text !== undefined && row.text !== text) {
          let at = 0;
          while (row.text[at] === text[at]) at++;
          throw new Error(
            `${c}: the paths answer different bodies, from character ${at}: ${JSON.stringify(row.text.slice(Math.max(0, at - 80), at + 80))} vs ${JSON.stringify(text.slice(Math.max(0, at - 80), at + 80))}`,
          );
        }
        row.text = text;
        if (CFG.pgLog) {
          const logged = fs.readFileSync(CFG.pgLog, 'utf8').split('\n');
          await fetch(url, { headers }).then((r) => r.text());
          await new Promise((r) => setTimeout(r, 300));
          const after = fs
            .readFileSync(CFG.pgLog, 'utf8')
            .split('\n')
            .slice(logged.length - 1)
            .filter((l) => l.includes(db.name) || !/^\d{4}-/.test(l));
          log(
            `\n${p.name} ${c}: statements of one request (${after.filter((l) => /LOG:  (statement|execute)/.test(l)).length}):\n${after.join('\n')}`,
          );
          continue;
        }
        const r0 = (row[p.name] = { count: body.count });
        for (const connections of CFG.skipC1 ? [CFG.connections] : [1, CFG.connections]) {
          await waitIdle(p.pids());
          if (CFG.warmup) await cannon({ url, headers, connections, duration: CFG.warmup });
          if (connections > 1) await p.meter.start();
          measuringFrom ??= Date.now();
          const r = await cannon({ url, headers, connections, duration: CFG.duration });
          r0[`c${connections}`] = {
            rps: +(r['2xx'] / r.duration).toFixed(1),
            p50: r.latency.p50,
            p99: r.latency.p99,
            failed: r.non2xx + r.errors + r.timeouts,
          };
          if (connections > 1) {
            const cpu = await p.meter.stop();
            r0.cpu_ms_per_req = Object.fromEntries(
              Object.entries(cpu).map(([k, v]) => [k, k.includes('%') ? +v.toFixed(0) : +((v * 1000) / Math.max(1, r['2xx'])).toFixed(2)]),
            );
          }
        }
      }
      delete row.text;
      results.push(row);
    }
  if (CFG.pgLog) return;
  if (paths.length > 1) log('both paths answered byte-identical bodies for every case');
  for (const p of paths) {
    log(`\n${p.name}${p.name === 'before' ? ` (${CFG.beforeRoot})` : ''}:`);
    const base = results[0][p.name][`c${CFG.connections}`];
    for (const row of results) {
      const r = row[p.name];
      const hi = r[`c${CFG.connections}`];
      log(
        `${row.name.padEnd(32)} ${String(r.count).padStart(5)} rows | ${r.c1 ? `1 conn p50 ${r.c1.p50} p99 ${r.c1.p99} ms` : '1 conn skipped'} | ${CFG.connections} conn ${hi.rps} req/s p50 ${hi.p50} p99 ${hi.p99} ms (${(hi.rps / base.rps).toFixed(2)}x baseline req/s), failed ${hi.failed}; CPU ms/req ${JSON.stringify(r.cpu_ms_per_req)}`,
      );
    }
  }
  if (paths.length > 1) {
    log('\nnow vs before, same run (req/s at 10 connections):');
    for (const row of results)
      log(`${row.name.padEnd(32)} ${(row.now[`c${CFG.connections}`].rps / row.before[`c${CFG.connections}`].rps).toFixed(2)}x`);
  }
  if (CFG.rounds > 1) {
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
    log(`\nmedians over ${CFG.rounds} rounds (${CFG.connections} connections):`);
    for (const [name] of CASES) {
      const rows = results.filter((r) => r.case === CASES.find((k) => k[0] === name)[1]);
      for (const p of paths) {
        const hi = rows.map((r) => r[p.name][`c${CFG.connections}`]);
        const cpu = (k) => median(rows.map((r) => r[p.name].cpu_ms_per_req[k]));
        log(
          `${name.padEnd(32)} ${p.name.padEnd(6)} req/s ${median(hi.map((h) => h.rps))} p50 ${median(hi.map((h) => h.p50))} p99 ${median(hi.map((h) => h.p99))} ms (rounds p99: ${hi.map((h) => h.p99).join(', ')}); CPU ms/req gateway ${cpu('api-gateway')} inbox ${cpu('inbox')} postgres ${cpu('postgres')}`,
        );
      }
      if (paths.length > 1)
        log(
          `${name.padEnd(32)} now/before ${median(rows.map((r) => r.now[`c${CFG.connections}`].rps / r.before[`c${CFG.connections}`].rps)).toFixed(2)}x (rounds: ${rows.map((r) => (r.now[`c${CFG.connections}`].rps / r.before[`c${CFG.connections}`].rps).toFixed(2)).join(', ')})`,
        );
    }
  }
  const out = path.join(ROOT, 'bench/results', `tickets-${stamp}.json`);
  fs.writeFileSync(out, JSON.stringify({ cfg: CFG, load: os.loadavg(), results }, null, 2));
  if (CFG.cpuProf) {
    await stopAll();
    for (const p of paths) {
      const procs = Object.entries(p.procs);
      const profiles = summarizeProfiles(
        path.join(logDir, `prof-${p.name}`),
        Object.fromEntries(procs.map(([n, x]) => [x.child.pid, n])),
        Object.fromEntries(procs.map(([, x]) => [x.child.pid, measuringFrom - x.startedAt])),
      );
      for (const [name, prof] of Object.entries(profiles)) {
        log(`\nCPU profile ${name} (from the first measurement on): top self time`);
        for (const row of prof.top) log(`  ${row.pct.toFixed(1).padStart(5)}%  ${row.name}  ${row.where}`);
        log(`  by package: ${prof.byPackage.map((x) => `${x.name} ${x.pct.toFixed(1)}%`).join(', ')}`);
      }
    }
  }
  log(
    `\nresults: ${out}; load avg now ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}

run(main);
