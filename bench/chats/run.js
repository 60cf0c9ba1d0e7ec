#!/usr/bin/env node
'use strict';
/**
 * Benchmark of GET /v1/chats and GET /v1/chats/messages (issue 16 aims): an organization with
 * BENCH_CHATS chats (each seen by one to three phones) and BENCH_MESSAGES messages, seeded with SQL
 * (generate_series, bench/messages/seed.js), chat rows derived from the messages as ingestion keeps
 * them; every 5th chat carries the label "vip" (so the label-filtered 2000 page is full). Gateway +
 * chats as processes over NATS; autocannon at 1 and BENCH_CONNECTIONS connections; EXPLAIN (ANALYZE)
 * of the chats page query. Prints p50/p99 per case and writes bench/results/chats-<time>.json.
 *
 * In the same run, per case and beside the gateway path (`now`):
 * - `raw`: the floor — ONE process doing the service's use case on a bare pg pool + JSON.stringify,
 *   no gateway, NATS, auth or Prisma (bench/chats/baseline-server.js, this checkout's libs);
 * - `before`: with BENCH_BEFORE_ROOT (a built checkout of an earlier commit), its gateway + chats.
 * Every stack's body is checked byte for byte against `now`'s before any case is loaded.
 *
 * Usage: bash scripts/build.sh && node bench/chats/run.js
 * Knobs (env): BENCH_CHATS (50000), BENCH_MESSAGES (1000000), BENCH_CONNECTIONS (10), BENCH_DURATION (10 s),
 *   BENCH_WARMUP (2 s), BENCH_CASES (comma list of paths, default below), BENCH_ENCODINGS (identity,gzip:
 *   the Accept-Encoding each case is loaded with; bytes are recorded for identity, gzip and br),
 *   BENCH_STACKS (now,raw[,before]: which to load), BENCH_BEFORE_ROOT.
 */
const fs = require('node:fs');
const path = require('node:path');
const os = require('node:os');
const { randomBytes } = require('node:crypto');
const { freePort, testEnv } = require('@mapi/testing');
const { seedOrg, deriveChatRows, addGroupParticipants } = require('../messages/seed');
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
  beforeRoot: process.env.BENCH_BEFORE_ROOT || '',
  cases: (
    process.env.BENCH_CASES ||
    '/chats?limit=2000,/chats?limit=100,/chats?limit=2000&label=vip,/chats?limit=100&offset=40000,/chats/messages?limit=2000,/chats/messages?limit=100'
  ).split(','),
};
const log = (...a) => console.log(...a);
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const load = loadRunner();
const { cannon } = load;
const { cleanups, run } = guardBench(900_000, { onAbort: () => load.stop() });

async function main() {
  log(
    `chats bench: ${CFG.chats.toLocaleString('en')} chats, ${CFG.messages.toLocaleString('en')} messages; ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  const { db, pg, prisma } = await openBenchDatabase('mapi_bench_chats', cleanups);
  let t = Date.now();
  // every 10th message into one big group chat, the rest over BENCH_CHATS - 1 chats (phone = i % 3)
  const world = await seedOrg({
    prisma,
    pg,
    name: 'Chats bench',
    total: CFG.messages,
    bigChatMessages: CFG.messages / 10,
    otherChats: CFG.chats - 1,
    log,
  });
  await deriveChatRows(pg, world.org.id);
  await addGroupParticipants(pg, world.org.id);
  await pg.query(
    `INSERT INTO chat_labels (org_id, chat_id, label_id, label_name)
     SELECT DISTINCT org_id, chat_id, '5e1ec7ed-0000-4000-8000-000000000001'::uuid, 'vip' FROM chats WHERE org_id = $1 AND abs(hashtext(chat_id)) % 5 = 0`,
    [world.org.id],
  );
  await pg.query('VACUUM ANALYZE chats');
  await pg.query('VACUUM ANALYZE chat_labels');
  await pg.query('VACUUM ANALYZE messages');
  const {
    rows: [counts],
  } = await pg.query(
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
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    RATE_LIMIT_PER_SECOND: '1000000',
  };
  delete env.OTEL_EXPORTER_OTLP_ENDPOINT;
  delete env.NODE_OPTIONS;
  cleanups.push(() => stopAll());
  const logDir = path.join(ROOT, 'bench/results', `chats-logs-${stamp}`);
  fs.mkdirSync(logDir, { recursive: true });
  const gatewayStack = async (name, root) => {
    const [gwPort, healthPort] = [await freePort(), await freePort()];
    const ns = `${namespace}-${name}`;
    const chats = startNode(`chats-${name}`, path.join(root, 'apps/chats/dist/main.js'), {
      cwd: root,
      env: { ...env, NAMESPACE: ns, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' },
      logFile: path.join(logDir, `chats-${name}.log`),
    });
    const gateway = startNode(`api-gateway-${name}`, path.join(root, 'apps/api-gateway/dist/main.js'), {
      cwd: root,
      env: { ...env, NAMESPACE: ns, PORT: String(gwPort), HOST: '127.0.0.1' },
      logFile: path.join(logDir, `api-gateway-${name}.log`),
    });
    await Promise.all([
      waitReady(chats, `http://127.0.0.1:${healthPort}/health/ready`),
      waitReady(gateway, `http://127.0.0.1:${gwPort}/health/ready`),
    ]);
    return {
      name,
      base: `http://127.0.0.1:${gwPort}/v1`,
      headers: { authorization: `Bearer ${world.token.token}` },
      pids: [chats.child.pid, gateway.child.pid],
    };
  };
  const rawStack = async () => {
    const port = await freePort();
    const proc = startNode('raw', path.join(__dirname, 'baseline-server.js'), {
      cwd: ROOT,
      env: { ...env, ORG_ID: world.org.id, PORT: String(port), HOST: '127.0.0.1', BASELINE_ROOT: ROOT },
      logFile: path.join(logDir, 'raw.log'),
    });
    await waitReady(proc, `http://127.0.0.1:${port}/v1/chats?limit=1`);
    return { name: 'raw', base: `http://127.0.0.1:${port}/v1`, headers: {}, pids: [proc.child.pid] };
  };
  const wanted = (process.env.BENCH_STACKS || `now,raw${CFG.beforeRoot ? ',before' : ''}`).split(',');
  const stacks = [];
  for (const name of wanted) {
    if (name === 'now') stacks.push(await gatewayStack('now', ROOT));
    else if (name === 'raw') stacks.push(await rawStack());
    else if (name === 'before') {
      if (!CFG.beforeRoot) throw new Error('BENCH_STACKS has before but BENCH_BEFORE_ROOT is not set');
      stacks.push(await gatewayStack('before', CFG.beforeRoot));
    } else throw new Error(`unknown stack ${name}`);
  }
  const allPids = () => stacks.flatMap((s) => s.pids);

  const results = [];
  for (const c of CFG.cases) {
    await waitIdle(allPids()); // the previous case's overload may still be draining
    // the same bytes from every stack, or the comparison is void
    const bodies = {};
    for (const st of stacks) {
      const probe = await wireBytes(`${st.base}${c}`, { ...st.headers, 'accept-encoding': 'identity' });
      if (probe.status !== 200) throw new Error(`${st.name} ${c}: ${probe.status}`);
      bodies[st.name] = probe.body;
    }
    const ref = bodies[stacks[0].name];
    for (const st of stacks)
      if (!bodies[st.name].equals(ref))
        throw new Error(`${c}: ${st.name}'s body differs from ${stacks[0].name}'s (${bodies[st.name].length} vs ${ref.length} bytes)`);
    const sizes = {};
    for (const encoding of ['identity', 'gzip', 'br'])
      sizes[encoding] = (await wireBytes(`${stacks[0].base}${c}`, { ...stacks[0].headers, 'accept-encoding': encoding })).bytes;
    const bytes = sizes.identity;
    for (const encoding of CFG.encodings) {
      for (const st of stacks) {
        const url = `${st.base}${c}`;
        const row = { case: c, stack: st.name, encoding, bytes, sizes, load: os.loadavg()[0] };
        const h = { ...st.headers, 'accept-encoding': encoding };
        for (const connections of [1, CFG.connections]) {
          await waitIdle(allPids());
          if (CFG.warmup) await cannon({ url, headers: h, connections, duration: CFG.warmup });
          const r = await cannon({ url, headers: h, connections, duration: CFG.duration });
          // failures (504 past RPC_TIMEOUT_MS under overload) are recorded, not fatal: they are a finding
          row[`c${connections}`] = {
            rps: +(r['2xx'] / r.duration).toFixed(1),
            p50: r.latency.p50,
            p99: r.latency.p99,
            requests: r['2xx'],
            failed: r.non2xx + r.errors + r.timeouts,
            codes: r.statusCodeStats,
          };
        }
        results.push(row);
        const n = row[`c${CFG.connections}`];
        log(
          `${c.padEnd(34)} ${st.name.padEnd(6)} ${encoding.padEnd(8)} ${(sizes[encoding] / 1024).toFixed(0).padStart(6)} KiB | 1 conn p50 ${row.c1.p50} p99 ${row.c1.p99} ms | ${CFG.connections} conn ${n.rps} req/s p50 ${n.p50} p99 ${n.p99} ms, failed ${n.failed} | load ${row.load.toFixed(2)}`,
        );
      }
    }
  }
  const out = path.join(ROOT, 'bench/results', `chats-${stamp}.json`);
  fs.writeFileSync(out, JSON.stringify({ cfg: CFG, counts, load: os.loadavg(), results }, null, 2));
  log(
    `\nresults: ${out}; load avg now ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
}

run(main);
