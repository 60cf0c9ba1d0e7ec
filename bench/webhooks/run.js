#!/usr/bin/env node
'use strict';
/**
 * Webhook delivery benchmark (loopback only, bounded, cleans up):
 *  1. throughput: a backlog of BENCH_WEBHOOK_EVENTS (20000) events written to the outbox at once,
 *     relayed to JetStream, consumed, scheduled and POSTed to a local receiver; deliveries per second
 *     from the first write until every id arrived (end to end) and in the steady middle (10%..90%).
 *  2. latency: BENCH_WEBHOOK_RATE (200) events/s for BENCH_WEBHOOK_SECONDS (15 s); event-to-delivery
 *     time = arrival at the receiver − the event's created_at (outbox write time); p50/p95/p99/max.
 * Processes: the webhooks-dispatcher app and an OutboxRelay process (as in phones/chats, 100 ms poll),
 * on a throw-away database and NATS namespace. Build first: npx nx run-many -t build.
 * Results: stdout and bench/results/webhooks-<time>.json (git-ignored).
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { dispatcherBenchEnv } = require('../lib/dispatcher-env');
const { randomUUID } = require('node:crypto');
const { createTestDatabase, AppProcess, freePort, createOrg } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { startReceiver } = require('./receiver');

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS || 20_000);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE || 200);
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS || 15);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function waitFor(fn, timeoutMs, label) {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${label}`);
    await sleep(20);
  }
}

async function writeOutbox(prisma, orgId, n, seq) {
  const now = new Date();
  await prisma.outboxEvent.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      id: randomUUID(),
      org_id: orgId,
      type: 'message.created',
      payload: { n: seq + i, body: 'benchmark message' },
      created_at: now,
    })),
  });
}

async function main() {
  const db = await createTestDatabase('mapi_bench_webhooks');
  const prisma = createPrismaClient({ url: db.url, poolSize: 4 });
  const receiver = await startReceiver();
  const healthPort = await freePort();
  const env = dispatcherBenchEnv(db.url, healthPort, 'wb');
  let dispatcher;
  let relay;
  try {
    const org = await createOrg(prisma);
    await prisma.webhookSubscription.create({
      data: {
        org_id: org.id,
        integration_name: 'message.created',
        integration_id: org.id,
        integration_metadata: { id: org.id, name: 'bench' },
        hook_url: `${receiver.url}/bench`,
        secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64'),
      },
    });
    dispatcher = AppProcess.start('webhooks-dispatcher', env);
    relay = spawn(process.execPath, [path.join(__dirname, 'outbox-relay-process.js')], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    await dispatcher.waitReady(`http://127.0.0.1:${healthPort}/health/ready`);

    // Warm-up.
    await writeOutbox(prisma, org.id, 200, 0);
    await waitFor(() => receiver.requests.length >= 200, 30_000, 'warm-up');
    receiver.requests.length = 0;

    // 1. Throughput on a backlog.
    const ids = new Set();
    const arrivals = [];
    receiver.state.onRequest = (r) => {
      const id = r.headers['webhook-id'];
      if (!ids.has(id)) {
        ids.add(id);
        arrivals.push(r.at);
      }
    };
    const t0 = Date.now();
    for (let seq = 0; seq < EVENTS; seq += 1000) await writeOutbox(prisma, org.id, Math.min(1000, EVENTS - seq), seq);
    const written = Date.now();
    await waitFor(() => ids.size >= EVENTS, 300_000, 'backlog delivered');
    const t1 = Date.now();
    const a10 = arrivals[Math.floor(EVENTS * 0.1)];
    const a90 = arrivals[Math.floor(EVENTS * 0.9)];
    const throughput = {
      events: EVENTS,
      write_ms: written - t0,
      end_to_end_ms: t1 - t0,
      deliveries_per_second_end_to_end: Math.round(EVENTS / ((t1 - t0) / 1000)),
      deliveries_per_second_steady: Math.round((EVENTS * 0.8) / ((a90 - a10) / 1000)),
      duplicates: receiver.requests.length - EVENTS,
    };
    console.log('throughput', throughput);

    // 2. Latency at a steady rate.
    receiver.requests.length = 0;
    const latencies = [];
    receiver.state.onRequest = (r) => {
      const body = JSON.parse(r.body);
      latencies.push(r.at - Date.parse(body.created_at));
    };
    const tick = 50;
    const perTick = (RATE * tick) / 1000;
    const start = Date.now();
    let sent = 0;
    while (Date.now() - start < SECONDS * 1000) {
      const due = Math.floor(((Date.now() - start) / 1000) * RATE) + perTick;
      if (due > sent) {
        await writeOutbox(prisma, org.id, due - sent, sent);
        sent = due;
      }
      await sleep(tick / 2);
    }
    await waitFor(() => latencies.length >= sent, 30_000, 'steady events delivered');
    const sorted = [...latencies].sort((a, b) => a - b);
    const latency = {
      rate_per_second: RATE,
      seconds: SECONDS,
      events: sent,
      p50_ms: pct(sorted, 50),
      p95_ms: pct(sorted, 95),
      p99_ms: pct(sorted, 99),
      max_ms: sorted.at(-1),
    };
    console.log('latency', latency);

    const result = {
      at: new Date().toISOString(),
      throughput,
      latency,
      aims: { deliveries_per_second: 2000, p99_ms_at_200_per_second: 500 },
    };
    fs.mkdirSync(path.join(__dirname, '..', 'results'), { recursive: true });
    const file = path.join(__dirname, '..', 'results', `webhooks-${result.at.replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(file, JSON.stringify(result, null, 2));
    console.log(`written ${path.relative(process.cwd(), file)}`);
  } finally {
    await dispatcher?.stop();
    if (relay && relay.exitCode === null) relay.kill('SIGTERM');
    await receiver.close();
    await prisma.$disconnect();
    await db.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
