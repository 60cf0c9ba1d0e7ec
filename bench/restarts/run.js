#!/usr/bin/env node
'use strict';
/**
 * Restarts nobody sees (issue 20's aim): every app restarted BENCH_RESTARTS (5) times, one after the
 * other, under an open-loop load of BENCH_RATE (200) requests a second — GET a chat's messages and, one
 * request in BENCH_SEND_EVERY (10), POST /v1/message/send with a body of its own. Counted: every
 * request that did not get its 2xx (status or network error), and afterwards every send on the network
 * (the phone's echo in `messages`, by its unique body): none lost, none twice.
 *
 * Two gateways behind the bench's own round-robin balancer stand for a Kubernetes Service: before a
 * gateway gets SIGTERM it leaves the rotation, as a pod leaves the Service's endpoints before its
 * SIGTERM (deploy/: preStop); the requests it holds must complete. Every other app runs one instance,
 * so while it restarts no instance exists and the gateway holds its requests (RPC_UNAVAILABLE_RETRY_MS).
 * A restart is SIGTERM, the exit, a new process, its readiness; then BENCH_GAP_MS before the next.
 *
 * Usage: bash scripts/build.sh && node bench/restarts/run.js
 * Knobs (env): BENCH_RATE (200), BENCH_SEND_EVERY (10), BENCH_RESTARTS (5), BENCH_GAP_MS (1000),
 *   BENCH_APPS (api-gateway,chats,phones,queue,webhooks-dispatcher,members: the apps on the path of
 *   these requests and their events), BENCH_PHONES (4).
 * Writes bench/results/restarts-<time>.json.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Pool } = require('pg');
const { connect } = require('nats');
const { AppProcess, createTestDatabase, createOrg, createToken, freePort, randomDigits, testEnv } = require('@mapi/testing');
const { ensureStreams, streamNames } = require('@mapi/events');
const { createPrismaClient } = require('@mapi/db');
const { guardBench } = require('../lib/cleanup');

const ROOT = path.join(__dirname, '..', '..');
const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  rate: num('BENCH_RATE', 200),
  sendEvery: num('BENCH_SEND_EVERY', 10),
  restarts: num('BENCH_RESTARTS', 5),
  gapMs: num('BENCH_GAP_MS', 1000),
  phones: num('BENCH_PHONES', 4),
  apps: (process.env.BENCH_APPS || 'api-gateway,chats,phones,queue,webhooks-dispatcher,members').split(','),
};
const SERVICES = ['chats', 'phones', 'queue', 'webhooks-dispatcher', 'members'];
const log = (...a) => console.log(...a);
const { sleep, loadAvg: load, pct, waitFor: waitForEvery } = require('../lib/waiting');
const { cleanups, run } = guardBench(1_800_000);

const waitFor = (fn, timeoutMs, label) => waitForEvery(fn, timeoutMs, label, 100);

/** Round-robin over the gateways in rotation (a Service's endpoints); `targets()` is read per request. */
function startBalancer(targets) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const out = new Set();
  let next = 0;
  const server = http.createServer((req, res) => {
    const live = targets().filter((t) => !out.has(t.name));
    const target = live[next++ % live.length];
    const up = http.request(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
      (r) => {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', (e) => {
      res.writeHead(599, { 'content-type': 'text/plain' });
      res.end(`balancer: ${target.name}: ${e.code ?? e.message}`);
    });
    req.pipe(up);
  });
  // Idle keep-alive sockets outlive the run: a client reusing one just as the server closes it gets
  // ECONNRESET (Node's keep-alive race), a failure of this harness, not of what it measures.
  server.keepAliveTimeout = 600_000;
  server.headersTimeout = 601_000;
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: server.address().port,
        take: (name) => out.add(name),
        put: (name) => out.delete(name),
        close: () => new Promise((r) => server.close(r)),
      }),
    ),
  );
}

async function main() {
  log(`restarts bench: ${CFG.apps.join(', ')} × ${CFG.restarts} under ${CFG.rate} req/s (1 in ${CFG.sendEvery} a send); load ${load()}`);
  const db = await createTestDatabase('mapi_bench_restarts');
  cleanups.push(() => db.drop());
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  cleanups.push(() => prisma.$disconnect());
  const pool = new Pool({ connectionString: db.url, max: 2 });
  cleanups.push(() => pool.end());
  const nc = await connect({ servers: testEnv.natsUrl(), name: 'bench-restarts' });
  cleanups.push(() => nc.close());
  const namespace = `bench-restarts-${randomBytes(3).toString('hex')}`;
  await ensureStreams(nc, namespace);
  cleanups.push(async () => {
    const jsm = await nc.jetstreamManager();
    for (const s of Object.values(streamNames(namespace))) await jsm.streams.delete(s).catch(() => undefined);
  });
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: db.url,
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    RATE_LIMIT_PER_SECOND: '1000000',
    QUEUE_SEND_INTERVAL_MS: '20',
    QUEUE_SEND_JITTER_MS: '10',
    PHONE_LEASE_TTL_MS: '3000',
  };
  const running = {};
  cleanups.push(() => Promise.all(Object.values(running).map((p) => p.stop())));
  const start = async (name) => {
    const isGateway = name.startsWith('api-gateway');
    const port = await freePort();
    const healthPort = await freePort();
    const proc = AppProcess.start(isGateway ? 'api-gateway' : name, {
      ...env,
      HEALTH_PORT: String(healthPort),
      HEALTH_HOST: '127.0.0.1',
      ...(isGateway ? { PORT: String(port), HOST: '127.0.0.1' } : {}),
    });
    proc.port = port;
    running[name] = proc;
    await proc.waitReady(isGateway ? `http://127.0.0.1:${port}/health/ready` : `http://127.0.0.1:${healthPort}/health/ready`, 120_000);
    return proc;
  };
  for (const app of SERVICES) await start(app);
  await Promise.all([start('api-gateway-a'), start('api-gateway-b')]);
  const gateways = () => [
    { name: 'api-gateway-a', port: running['api-gateway-a'].port },
    { name: 'api-gateway-b', port: running['api-gateway-b'].port },
  ];
  const balancer = await startBalancer(gateways);
  cleanups.push(() => balancer.close());

  const org = await createOrg(prisma, { plan: 'enterprise' });
  const { token } = await createToken(prisma, org.id);
  const base = () => `http://127.0.0.1:${balancer.port}/v1`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const request = (method, p, body, headers = {}) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const data = body ? JSON.stringify(body) : undefined;
      const req = http.request(
        `${base()}${p}`,
        {
          method,
          agent,
          headers: { authorization: `Bearer ${token}`, ...(data ? { 'content-type': 'application/json' } : {}), ...headers },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode, ms: performance.now() - t0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', (e) => resolve({ status: `response ${e.code ?? e.message}`, ms: performance.now() - t0 }));
        },
      );
      req.on('error', (e) => resolve({ status: `request ${e.code ?? e.message}`, ms: performance.now() - t0 }));
      req.setTimeout(60_000, () => req.destroy(new Error('client timeout 60 s')));
      req.end(data);
    });
  const json = async (method, p, body, headers) => {
    const r = await request(method, p, body, headers);
    return { status: r.status, body: r.body ? JSON.parse(r.body) : undefined };
  };

  const phones = [];
  for (let k = 0; k < CFG.phones; k++) {
    const created = await json('POST', '/phones/create', { phone_name: `Restarts ${k}` });
    const phoneId = created.body.phone_id;
    await waitFor(async () => (await json('GET', '/phones', null, { 'x-phone': phoneId })).body?.wa_state === 'QR', 30_000, 'QR');
    await json('POST', '/sandbox/phones/scan', { number: randomDigits() }, { 'x-phone': phoneId });
    await waitFor(
      async () => (await json('GET', '/phones', null, { 'x-phone': phoneId })).body?.wa_state === 'CONNECTED',
      30_000,
      'connected',
    );
    phones.push(phoneId);
  }
  // a chat with history to read: one message sent through each phone, echoed back
  const readChat = randomDigits();
  for (const phoneId of phones) await json('POST', '/message/send', { chat_id: readChat, message: 'history' }, { 'x-phone': phoneId });
  await waitFor(
    async () =>
      Number((await pool.query(`SELECT count(*) FROM messages WHERE org_id = $1 AND body = 'history'`, [org.id])).rows[0].count) >=
      phones.length,
    60_000,
    'history',
  );

  // the open-loop load
  const results = [];
  const sends = [];
  let loading = true;
  let seq = 0;
  let phase = 'warm-up';
  const fire = () => {
    const i = seq++;
    const at = Date.now();
    const p = phase;
    if (i % CFG.sendEvery === 0) {
      const marker = `restarts-${i}-${randomBytes(4).toString('hex')}`;
      const phoneId = phones[i % phones.length];
      request('POST', '/message/send', { chat_id: `91${String(i % 500).padStart(10, '0')}`, message: marker }, { 'x-phone': phoneId }).then(
        (r) => {
          results.push({ kind: 'send', at, phase: p, status: r.status, ms: r.ms });
          sends.push({ marker, accepted: r.status === 200 });
        },
      );
    } else {
      const phoneId = phones[i % phones.length];
      request('GET', `/chats/${readChat}@c.us/messages?limit=20`, null, { 'x-phone': phoneId }).then((r) =>
        results.push({ kind: 'read', at, phase: p, status: r.status, ms: r.ms }),
      );
    }
  };
  const loadLoop = (async () => {
    const t0 = Date.now();
    let fired = 0;
    while (loading) {
      const due = Math.floor(((Date.now() - t0) * CFG.rate) / 1000);
      while (fired < due) {
        fire();
        fired++;
      }
      await sleep(2);
    }
  })();

  await sleep(5_000);
  const restarts = [];
  for (const app of CFG.apps) {
    for (let k = 1; k <= CFG.restarts; k++) {
      phase = `${app} #${k}`;
      const name = app === 'api-gateway' ? (k % 2 ? 'api-gateway-a' : 'api-gateway-b') : app;
      const t0 = Date.now();
      if (app === 'api-gateway') {
        balancer.take(name); // the pod leaves the Service's endpoints, then gets SIGTERM
        await sleep(200);
      }
      const code = await running[name].stop('SIGTERM');
      const exitedMs = Date.now() - t0;
      const fresh = await start(name);
      if (app === 'api-gateway') balancer.put(name); // back in the endpoints once ready, on its new port
      restarts.push({ app, k, exit_code: code, exited_ms: exitedMs, down_ms: Date.now() - t0, pid: fresh.child.pid });
      log(`  ${phase}: exit ${code} after ${exitedMs} ms, ready again after ${Date.now() - t0} ms (load ${load()})`);
      await sleep(CFG.gapMs);
    }
  }
  phase = 'after';
  await sleep(3_000);
  loading = false;
  await loadLoop;
  await waitFor(() => results.length >= seq, 120_000, 'every request answered');

  // every send on the network exactly once (its echo in messages)
  const count = async () =>
    (
      await pool.query(
        `SELECT body, count(*)::int AS n FROM messages WHERE org_id = $1 AND from_me AND body LIKE 'restarts-%' GROUP BY body`,
        [org.id],
      )
    ).rows;
  const accepted = sends.filter((s) => s.accepted);
  await waitFor(async () => (await count()).length >= accepted.length, 300_000, 'every accepted send on the network').catch((e) =>
    log(`  ${e.message}`),
  );
  await sleep(2_000);
  const rows = await count();
  const byBody = new Map(rows.map((r) => [r.body, r.n]));
  // lost: answered 200 and never on the network; a send whose request failed may or may not be (the client cannot know)
  const lost = accepted.filter((s) => !byBody.has(s.marker));
  const doubled = rows.filter((r) => r.n > 1);
  const refusedButSent = sends.filter((s) => !s.accepted && byBody.has(s.marker)).length;

  const failed = results.filter((r) => r.status !== 200);
  const byPhase = {};
  for (const f of failed) byPhase[`${f.phase}: ${f.kind} ${f.status}`] = (byPhase[`${f.phase}: ${f.kind} ${f.status}`] ?? 0) + 1;
  const lat = (kind) => results.filter((r) => r.kind === kind && r.status === 200).map((r) => r.ms);
  const summary = {
    requests: results.length,
    failed: failed.length,
    failures: byPhase,
    sends: sends.length,
    sends_accepted: accepted.length,
    sends_lost: lost.length,
    sends_doubled: doubled.length,
    failed_sends_on_network: refusedButSent,
    read_ms: { p50: +pct(lat('read'), 50).toFixed(1), p99: +pct(lat('read'), 99).toFixed(1), max: +Math.max(...lat('read')).toFixed(1) },
    send_ms: { p50: +pct(lat('send'), 50).toFixed(1), p99: +pct(lat('send'), 99).toFixed(1), max: +Math.max(...lat('send')).toFixed(1) },
    restarts: restarts.length,
    down_ms: {
      p50: pct(
        restarts.map((r) => r.down_ms),
        50,
      ),
      max: Math.max(...restarts.map((r) => r.down_ms)),
    },
    nonzero_exits: restarts.filter((r) => r.exit_code !== 0).map((r) => `${r.app} #${r.k}: ${r.exit_code}`),
  };
  log(`\n${JSON.stringify(summary, null, 2)}`);
  const out = path.join(ROOT, 'bench/results', `restarts-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ cfg: CFG, load_end: os.loadavg(), summary, restarts }, null, 2));
  log(`results: ${out}; load ${load()}`);
}

run(main);
