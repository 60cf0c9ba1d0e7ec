#!/usr/bin/env node
'use strict';
/**
 * Benchmark of GET /v1/chats and GET /v1/chats/messages (issue 16 aims): an organization with
 * BENCH_CHATS chats (each seen by one to three phones) and BENCH_MESSAGES messages, seeded with SQL
 * (generate_series, bench/messages/seed.js), chat rows derived from the messages as ingestion keeps
 * them. Gateway + chats as processes over NATS; autocannon at 1 and BENCH_CONNECTIONS connections;
 * EXPLAIN (ANALYZE) of the chats page query. Prints p50/p99 per case and writes
 * bench/results/chats-<time>.json.
 *
 * Usage: bash scripts/build.sh && node bench/chats/run.js
 * Knobs (env): BENCH_CHATS (50000), BENCH_MESSAGES (1000000), BENCH_CONNECTIONS (10), BENCH_DURATION (10 s),
 *   BENCH_WARMUP (2 s), BENCH_CASES (comma list of paths, default below), BENCH_ENCODINGS (identity,gzip:
 *   the Accept-Encoding each case is loaded with; bytes are recorded for identity, gzip and br).
 */
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const { randomBytes } = require('node:crypto');
const { freePort, testEnv } = require('@mapi/testing');
const { seedOrg, deriveChatRows } = require('../messages/seed');
const { startNode, waitReady, stopAll, waitIdle } = require('../messages/procs');
const { openBenchDatabase } = require('../lib/database');
const { guardBench } = require('../lib/cleanup');
const { loadRunner, wireBytes } = require('../lib/http-load');

const ROOT = path.join(__dirname, '..', '..');
const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  chats: num('BENCH_CHATS', 50_000),
  messages: num('BENCH_MESSAGES', 1_000_000),
  connections: num('BENCH_CONNECTIONS', 10),
  duration: num('BENCH_DURATION', 10),
  warmup: num('BENCH_WARMUP', 2),
  // Accept-Encoding values each case is loaded with (identity: none), for the compression aim of issue 20
  encodings: (process.env.BENCH_ENCODINGS || 'identity,gzip').split(','),
  cases: (process.env.BENCH_CASES || '/chats?limit=2000,/chats?limit=100,/chats?limit=2000&label=vip,/chats?limit=100&offset=40000,/chats/messages?limit=2000,/chats/messages?limit=100').split(','),
};
const log = (...a) => console.log(...a);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const load = loadRunner();
const { cannon } = load;
const { cleanups, run } = guardBench(900_000, { onAbort: () => load.stop() });


async function main() {
  log(`chats bench: ${CFG.chats.toLocaleString('en')} chats, ${CFG.messages.toLocaleString('en')} messages; ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const { db, pg, prisma } = await openBenchDatabase('mapi_bench_chats', cleanups);
  let t = Date.now();
  // every 10th message into one big group chat, the rest over BENCH_CHATS - 1 chats (phone = i % 3)
  const world = await seedOrg({ prisma, pg, name: 'Chats bench', total: CFG.messages, bigChatMessages: CFG.messages / 10, otherChats: CFG.chats - 1, log });
  await deriveChatRows(pg, world.org.id);
  await pg.query(
    `INSERT INTO group_participants (phone_id, chat_id, contact_id, org_id, is_admin)
     SELECT c.phone_id, c.chat_id, '9198' || lpad(g::text, 8, '0') || '@c.us', c.org_id, g = 1
     FROM chats c, generate_series(1, 50) g WHERE c.org_id = $1 AND c.chat_type = 'group'`,
    [world.org.id],
  );
  await pg.query('VACUUM ANALYZE chats');
  await pg.query('VACUUM ANALYZE messages');
  const { rows: [counts] } = await pg.query(
    `SELECT count(*)::int AS chat_rows, count(DISTINCT chat_id)::int AS chats, (SELECT count(*)::int FROM messages WHERE org_id = $1) AS messages FROM chats WHERE org_id = $1`,
    [world.org.id],
  );
  log(`seeded in ${((Date.now() - t) / 1000).toFixed(1)} s: ${JSON.stringify(counts)}`);

  const { rows: plan } = await pg.query(
    `EXPLAIN (ANALYZE, BUFFERS) SELECT c.chat_id FROM chats c WHERE c.org_id = $1::uuid
       AND NOT EXISTS (SELECT 1 FROM chats o WHERE o.org_id = c.org_id AND o.chat_id = c.chat_id AND (o.activity_at, o.phone_id) > (c.activity_at, c.phone_id))
     ORDER BY c.activity_at DESC, c.chat_id DESC LIMIT 2000`,
    [world.org.id],
  );
  log(`\nchats page query (limit 2000), EXPLAIN ANALYZE:\n${plan.map((r) => `  ${r['QUERY PLAN']}`).join('\n')}`);

  const namespace = `bench-${randomBytes(4).toString('hex')}`;
  const [gwPort, healthPort] = [await freePort(), await freePort()];
  const env = { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', DATABASE_URL: db.url, DATABASE_POOL_SIZE: '10', REDIS_URL: testEnv.redisUrl(), NATS_URL: testEnv.natsUrl(), NAMESPACE: namespace, RATE_LIMIT_PER_SECOND: '1000000' };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.NODE_OPTIONS;
  cleanups.push(() => stopAll());
  const logDir = path.join(ROOT, 'bench/results', `chats-logs-${stamp}`);
  fs.mkdirSync(logDir, { recursive: true });
  const chats = startNode('chats', path.join(ROOT, 'apps/chats/dist/main.js'), { cwd: ROOT, env: { ...env, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' }, logFile: path.join(logDir, 'chats.log') });
  const gateway = startNode('api-gateway', path.join(ROOT, 'apps/api-gateway/dist/main.js'), { cwd: ROOT, env: { ...env, PORT: String(gwPort), HOST: '127.0.0.1' }, logFile: path.join(logDir, 'api-gateway.log') });
  await Promise.all([waitReady(chats, `http://127.0.0.1:${healthPort}/health/ready`), waitReady(gateway, `http://127.0.0.1:${gwPort}/health/ready`)]);
  const pids = () => [chats.child.pid, gateway.child.pid];
  const headers = { authorization: `Bearer ${world.token.token}` };

  const results = [];
  for (const c of CFG.cases) {
    const url = `http://127.0.0.1:${gwPort}/v1${c}`;
    await waitIdle(pids()); // the previous case's overload may still be draining
    const sizes = {};
    for (const encoding of ['identity', 'gzip', 'br']) {
      const probe = await wireBytes(url, { ...headers, 'accept-encoding': encoding });
      if (probe.status !== 200) throw new Error(`${c}: ${probe.status}`);
      sizes[encoding] = probe.bytes;
    }
    const bytes = sizes.identity;
    for (const encoding of CFG.encodings) {
      const row = { case: c, encoding, bytes, sizes };
      const h = { ...headers, 'accept-encoding': encoding };
      for (const connections of [1, CFG.connections]) {
        await waitIdle(pids());
        if (CFG.warmup) await cannon({ url, headers: h, connections, duration: CFG.warmup });
        const r = await cannon({ url, headers: h, connections, duration: CFG.duration });
        // failures (504 past RPC_TIMEOUT_MS under overload) are recorded, not fatal: they are a finding
        row[`c${connections}`] = { rps: +(r['2xx'] / r.duration).toFixed(1), p50: r.latency.p50, p99: r.latency.p99, requests: r['2xx'], failed: r.non2xx + r.errors + r.timeouts, codes: r.statusCodeStats };
      }
      results.push(row);
      log(`${c.padEnd(36)} ${encoding.padEnd(8)} ${(sizes[encoding] / 1024).toFixed(0).padStart(6)} KiB (gzip ${(bytes / sizes.gzip).toFixed(1)}x, br ${(bytes / sizes.br).toFixed(1)}x smaller) | 1 conn p50 ${row.c1.p50} p99 ${row.c1.p99} ms | ${CFG.connections} conn ${row[`c${CFG.connections}`].rps} req/s p50 ${row[`c${CFG.connections}`].p50} p99 ${row[`c${CFG.connections}`].p99} ms, failed ${row[`c${CFG.connections}`].failed}`);
    }
  }
  const out = path.join(ROOT, 'bench/results', `chats-${stamp}.json`);
  fs.writeFileSync(out, JSON.stringify({ cfg: CFG, counts, load: os.loadavg(), results }, null, 2));
  log(`\nresults: ${out}; load avg now ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
}

run(main);
