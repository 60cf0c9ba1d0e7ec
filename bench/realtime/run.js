#!/usr/bin/env node
'use strict';
/**
 * Realtime (socket.io) benchmark, loopback only, bounded, cleans up:
 *  1. fan-out: BENCH_RT_CLIENTS (1000) socket.io clients of one organization on one gateway;
 *     events published straight to JetStream (as the outbox relay does). (a) a burst of
 *     BENCH_RT_BURST (2000) events as fast as possible: events/s delivered to every client, and
 *     deliveries (event × client) per second; (b) BENCH_RT_RATE (200) events/s for
 *     BENCH_RT_SECONDS (10 s): publish → client callback latency over every delivery.
 *  2. end to end: inbound sandbox messages (POST /v1/sandbox/messages) at BENCH_RT_RATE for
 *     BENCH_RT_SECONDS through phones → ingest stream → chats → outbox → JetStream → gateway →
 *     every client; latency = client callback − the moment the POST was sent, over every delivery.
 *  3. tenants (tenants.js): the same clients spread over BENCH_RT_TENANTS (100) organizations with a
 *     phone each, inbound messages at BENCH_RT_RATE round-robin over them: each event goes to its
 *     own tenant's clients only (the multi-tenant case). BENCH_RT_INJECT: network (default: rows
 *     of the sandbox network + a nudge, as inbound traffic arrives) or http (one control-API POST each).
 * BENCH_RT_PHASES (burst,fanout,e2e,tenants) picks the phases.
 * Processes: api-gateway, chats, phones (sandbox) on a throw-away database and NATS namespace; the
 * clients run in this process. Build first: npx nx run-many -t build. Run: node bench/realtime/run.js
 * Results: stdout and bench/results/realtime-<time>.json (git-ignored).
 */
const fs = require('node:fs');
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { createTestDatabase, AppProcess, freePort, testEnv, randomSuffix, createOrg, createToken, randomDigits } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { eventSubject, publishDurable } = require('@mapi/events');
const { connect: connectNats } = require('nats');
const { io } = require('socket.io-client');

const CLIENTS = Number(process.env.BENCH_RT_CLIENTS || 1000);
const BURST = Number(process.env.BENCH_RT_BURST || 2000);
const RATE = Number(process.env.BENCH_RT_RATE || 200);
const SECONDS = Number(process.env.BENCH_RT_SECONDS || 10);
const TENANTS = Number(process.env.BENCH_RT_TENANTS || 100);
const PHASES = new Set((process.env.BENCH_RT_PHASES || 'burst,fanout,e2e,tenants').split(','));
const { tenantsPhase } = require('./tenants');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const summary = (values) => {
  const s = Float64Array.from(values).sort();
  return { deliveries: s.length, p50_ms: pct(s, 50), p95_ms: pct(s, 95), p99_ms: pct(s, 99), max_ms: s[s.length - 1] };
};
const FILLER = 'x'.repeat(700); // a message object is ~1 KB of JSON

/** CPU seconds used so far by a child process (Linux /proc) and by this process (the clients). */
const cpuOf = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const benchCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
/** Wall time and CPU (gateway, clients) of one phase, as percentages of one core. */
function meter(gatewayPid, others = {}) {
  const t0 = Date.now(),
    g0 = cpuOf(gatewayPid),
    c0 = benchCpu();
  const o0 = Object.fromEntries(Object.entries(others).map(([name, pid]) => [name, cpuOf(pid)]));
  return () => {
    const s = (Date.now() - t0) / 1000;
    const pct = (used) => Math.round((used / s) * 100);
    return {
      gateway_cpu_pct: pct(cpuOf(gatewayPid) - g0),
      clients_cpu_pct: pct(benchCpu() - c0),
      ...Object.fromEntries(Object.entries(others).map(([name, pid]) => [`${name}_cpu_pct`, pct(cpuOf(pid) - o0[name])])),
      load_average: require('node:os')
        .loadavg()
        .map((l) => Math.round(l * 100) / 100),
    };
  };
}

async function waitFor(fn, timeoutMs, label) {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${label}`);
    await sleep(20);
  }
}

/** Runs `send(i)` RATE times a second for SECONDS; returns how many were sent. */
async function atRate(send) {
  const start = Date.now();
  let sent = 0;
  while (Date.now() - start < SECONDS * 1000) {
    const due = Math.floor(((Date.now() - start) / 1000) * RATE) + 1;
    while (sent < due) send(sent++);
    await sleep(5);
  }
  return sent;
}

async function main() {
  const db = await createTestDatabase('mapi_bench_realtime');
  const prisma = createPrismaClient({ url: db.url, poolSize: 4 });
  const namespace = `rt${randomSuffix(3)}`;
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SESSION_SCAN_MS: '200',
    RATE_LIMIT_PER_SECOND: '100000',
    REALTIME_MAX_CONNECTIONS_PER_TOKEN: String(CLIENTS + 10),
    REALTIME_MAX_CONNECTIONS: String(2 * CLIENTS + 100),
  };
  const procs = [];
  const sockets = [];
  const nc = await connectNats({ servers: testEnv.natsUrl() });
  try {
    for (const app of ['chats', 'phones']) {
      const healthPort = await freePort();
      // BENCH_RT_PROF=<preload.js>: a module preloaded into chats and phones (e.g. one that writes a CPU profile at exit).
      const prof = process.env.BENCH_RT_PROF ? { NODE_OPTIONS: `--require ${process.env.BENCH_RT_PROF}` } : {};
      const p = AppProcess.start(app, { ...env, ...prof, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' });
      procs.push(p);
      await p.waitReady(`http://127.0.0.1:${healthPort}/health/ready`);
    }
    const port = await freePort();
    const gateway = AppProcess.start('api-gateway', { ...env, PORT: String(port), HOST: '127.0.0.1' });
    procs.push(gateway);
    const base = `http://127.0.0.1:${port}`;
    await gateway.waitReady(`${base}/health/ready`);

    const org = await createOrg(prisma);
    const { token } = await createToken(prisma, org.id);
    const call = (method, p, body, phone) =>
      fetch(`${base}/v1${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(phone ? { 'x-phone': phone } : {}) },
        body: body && JSON.stringify(body),
      }).then((r) => r.json());
    const phoneId = (await call('POST', '/phones/create', { phone_name: 'bench' })).phone_id;
    await waitFor(async () => (await call('GET', '/phones', undefined, phoneId)).wa_state === 'QR', 15_000, 'QR');
    await call('POST', '/sandbox/phones/scan', { number: randomDigits() }, phoneId);
    await waitFor(async () => (await call('GET', '/phones', undefined, phoneId)).wa_state === 'CONNECTED', 15_000, 'connected');

    const connectClient = (headers, onEvent) => {
      const s = io(base, { transports: ['websocket'], reconnection: false, extraHeaders: headers });
      sockets.push(s);
      s.on('message.created', onEvent);
      return new Promise((resolve, reject) => {
        s.once('connect', resolve);
        s.once('connect_error', reject);
      });
    };
    const result = { at: new Date().toISOString(), clients: CLIENTS, aim: { p99_ms_at_200_per_second: 250 } };
    const save = () => {
      fs.mkdirSync(path.join(__dirname, '..', 'results'), { recursive: true });
      const file = path.join(__dirname, '..', 'results', `realtime-${result.at.replace(/[:.]/g, '-')}.json`);
      fs.writeFileSync(file, JSON.stringify(result, null, 2));
      console.log(`written ${path.relative(process.cwd(), file)}`);
    };

    if (PHASES.has('tenants')) {
      result.tenants = await tenantsPhase({
        prisma,
        base,
        nc,
        namespace,
        clientsTotal: CLIENTS,
        tenantsTotal: TENANTS,
        connect: connectClient,
        atRate,
        summary,
        waitFor,
        meter: () => meter(gateway.child.pid, { chats: procs[0].child.pid, phones: procs[1].child.pid }),
      });
      console.log(`tenants (${TENANTS} organizations, inbound message → callback)`, result.tenants);
      sockets.splice(0).forEach((s) => s.disconnect());
      await sleep(1000);
    }
    if (!['burst', 'fanout', 'e2e'].some((p) => PHASES.has(p))) return save();

    // Clients of one organization, unscoped: every delivery calls `onDelivery(data)`.
    let onDelivery = () => undefined;
    const t = Date.now();
    for (let i = 0; i < CLIENTS; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, CLIENTS - i) }, () =>
          connectClient({ Authorization: `Bearer ${token}` }, (data) => onDelivery(data)),
        ),
      );
    }
    const connectMs = Date.now() - t;
    result.connect_ms = connectMs;
    console.log(`${CLIENTS} clients connected in ${connectMs} ms`);

    const js = nc.jetstream();
    const publish = (i, extra = {}) => {
      const e = {
        event_id: randomUUID(),
        event_type: 'message.created',
        org_id: org.id,
        phone_id: phoneId,
        created_at: new Date().toISOString(),
        data: { n: i, t0: Date.now(), body: FILLER, ...extra },
      };
      return publishDurable(js, eventSubject(namespace, 'message.created'), e, e.event_id);
    };

    if (PHASES.has('burst')) {
      // 1a. Burst.
      let count = 0;
      let last = 0;
      onDelivery = () => {
        count++;
        last = Date.now();
      };
      const cpu = meter(gateway.child.pid, { chats: procs[0].child.pid, phones: procs[1].child.pid });
      const b0 = Date.now();
      for (let i = 0; i < BURST; i += 200) await Promise.all(Array.from({ length: Math.min(200, BURST - i) }, (_, k) => publish(i + k)));
      const published = Date.now();
      await waitFor(() => count >= BURST * CLIENTS, 300_000, 'burst delivered');
      result.burst = {
        events: BURST,
        clients: CLIENTS,
        publish_ms: published - b0,
        all_delivered_ms: last - b0,
        events_per_second_to_every_client: Math.round(BURST / ((last - b0) / 1000)),
        deliveries_per_second: Math.round((BURST * CLIENTS) / ((last - b0) / 1000)),
        ...cpu(),
      };
      console.log('fan-out burst', result.burst);
      await sleep(1000);
    }

    if (PHASES.has('fanout')) {
      // 1b. Steady rate from JetStream.
      const lat = [];
      onDelivery = (d) => lat.push(Date.now() - d.t0);
      const cpu = meter(gateway.child.pid, { chats: procs[0].child.pid, phones: procs[1].child.pid });
      const sent = await atRate((i) => void publish(i));
      await waitFor(() => lat.length >= sent * CLIENTS, 60_000, 'steady delivered');
      result.fanout = { rate_per_second: RATE, seconds: SECONDS, events: sent, ...summary(lat), ...cpu() };
      console.log('fan-out latency (JetStream publish → callback)', result.fanout);
      await sleep(1000);
    }

    if (PHASES.has('e2e')) {
      // 2. End to end from an inbound sandbox message, every client of the one organization.
      const sentAt = new Map();
      const lat = [];
      onDelivery = (d) => {
        const t0 = sentAt.get(d.body);
        if (t0 !== undefined) lat.push(Date.now() - t0);
      };
      const cpu = meter(gateway.child.pid, { chats: procs[0].child.pid, phones: procs[1].child.pid });
      const chats = Array.from({ length: 20 }, () => randomDigits());
      let failed = 0;
      const sent = await atRate((i) => {
        const body = `bench ${i}`;
        sentAt.set(body, Date.now());
        call('POST', '/sandbox/messages', { chat_id: chats[i % chats.length], body }, phoneId).then(
          (r) => r.message_id || failed++,
          () => failed++,
        );
      });
      await waitFor(() => lat.length >= (sent - failed) * CLIENTS, 120_000, 'end-to-end delivered');
      result.end_to_end = { rate_per_second: RATE, seconds: SECONDS, messages: sent, failed_posts: failed, ...summary(lat), ...cpu() };
      console.log('end to end (inbound message → callback)', result.end_to_end);
    }
    save();
  } finally {
    sockets.forEach((s) => s.disconnect());
    for (const p of procs.reverse()) await p.stop();
    const jsm = await nc.jetstreamManager();
    for (const s of ['EVENTS', 'INGEST']) await jsm.streams.delete(`${namespace.toUpperCase()}_${s}`).catch(() => undefined);
    await nc.drain();
    await prisma.$disconnect();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
