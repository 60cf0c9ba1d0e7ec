#!/usr/bin/env node
'use strict';
/**
 * Event sinks throughput and latency (issue 36 aim: each sink sustains 2,000 events/s end to end, p99 <
 * 500 ms at 200/s, like webhooks), with webhooks as the baseline in the same run. Loopback only,
 * bounded, cleans up. Build first: bash scripts/build.sh.
 *
 * Path measured, per kind: outbox rows (writeEvents, as the services write them) → the relay (woken by
 * NOTIFY, as the services run it, a process of its own) → JetStream → the webhooks-dispatcher (every
 * role) → the broker → a subscriber the bench runs. Kinds (BENCH_SINK_KINDS, in this order by default):
 *   http     the baseline: a webhook to a local receiver
 *   amqp     the machine's RabbitMQ (BENCH_AMQP_URL, amqp://127.0.0.1:5672): an exchange of the bench's own
 *   mqtt     the machine's Mosquitto (BENCH_MQTT_URL, mqtt://127.0.0.1:1883), QoS 1, MQTT 5
 *   nats     a nats-server the bench starts: core publish (delivered once the server has it)
 *   nats-js  the same server with a stream on the subject: JetStream publish, acked by the stream
 *   kafka    librdkafka's mock cluster (the tests' Kafka-protocol broker; no Apache Kafka runs here): a
 *            topic of 4 partitions, acks from the in-memory log
 * Each kind gets its own organization and one sink of message.created, then in turn:
 *  1. warm-up: BENCH_SINK_WARMUP (1000) events, all delivered;
 *  2. throughput, open loop: BENCH_SINK_OFFERED (2000) events/s offered for BENCH_SINK_OFFER_SECONDS (10),
 *     written on schedule whatever the delivery does; "sustained" = first arrivals per second in the
 *     offer window after its first 2 s (above the offer when a slow start is caught up in the window:
 *     read it with the backlog when the offer ends and the drain time after it);
 *  3. latency: BENCH_SINK_RATE (200) events/s for BENCH_SINK_SECONDS (15); latency = arrival at the
 *     subscriber − the event's created_at (its outbox row's commit time, near enough); p50/p95/p99/max.
 * Ratios: each kind's figures over the webhook baseline's. Duplicates (redeliveries) are counted.
 * Results: stdout and bench/results/event-sinks-<time>.json (git-ignored).
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { dispatcherBenchEnv } = require('../lib/dispatcher-env');
const { AppProcess, freePort, createOrg, stubEvents } = require('@mapi/testing');
const { writeEvents } = require('@mapi/events');
const { openBenchDatabase } = require('../lib/database');
const { guardBench } = require('../lib/cleanup');
const { sleep, loadAvg, pct, waitFor } = require('../lib/waiting');
const { KINDS } = require('./subscribers');

const KIND_NAMES = (process.env.BENCH_SINK_KINDS || 'http,amqp,mqtt,nats,nats-js,kafka').split(',').map((k) => k.trim());
const WARMUP = Number(process.env.BENCH_SINK_WARMUP || 1000);
const OFFERED = Number(process.env.BENCH_SINK_OFFERED || 2000);
const OFFER_SECONDS = Number(process.env.BENCH_SINK_OFFER_SECONDS || 10);
const RATE = Number(process.env.BENCH_SINK_RATE || 200);
const SECONDS = Number(process.env.BENCH_SINK_SECONDS || 15);
const RAMP_MS = 2_000;
const TICK_MS = 50;

/** Writes `n` message.created events of `orgId` in one transaction (as a service does). */
const write = (prisma, orgId, n, seq) =>
  prisma.$transaction((tx) =>
    writeEvents(
      tx,
      stubEvents(
        Array.from({ length: n }, (_, i) => ({
          type: 'message.created',
          org_id: orgId,
          phone_id: null,
          data: { n: seq + i, body: 'bench' },
        })),
      ),
    ),
  );

/**
 * Open loop: `rate` events/s for `seconds`, a batch every TICK_MS of what is due by then, written
 * without waiting for a previous batch's delivery (a slow write delays the next batch, not the count).
 */
async function offer(prisma, orgId, rate, seconds) {
  const start = Date.now();
  let sent = 0;
  const writes = [];
  while (Date.now() - start < seconds * 1000) {
    const due = Math.min(rate * seconds, Math.floor(((Date.now() - start + TICK_MS) / 1000) * rate));
    if (due > sent) {
      writes.push(write(prisma, orgId, due - sent, sent));
      sent = due;
    }
    await sleep(TICK_MS);
    // at most two batches in flight (the bench's Prisma pool): a pile-up would hide the writer's lag
    while (writes.length > 2) await writes.shift();
  }
  await Promise.all(writes);
  return { start, end: Date.now(), sent };
}

async function measureKind(name, { prisma, cleanups }) {
  const org = await createOrg(prisma);
  const seen = new Map(); // event_id → first arrival
  let arrivals = 0;
  const subscriber = await KINDS[name]((body, at) => {
    arrivals++;
    const b = JSON.parse(body);
    if (!seen.has(b.event_id)) seen.set(b.event_id, { at, createdAt: Date.parse(b.created_at) });
  });
  cleanups.push(() => subscriber.close());
  const { sink } = subscriber;
  await prisma.webhookSubscription.create({
    data: {
      org_id: org.id,
      integration_name: 'message.created',
      integration_id: org.id,
      integration_metadata: { id: org.id, name: `bench ${name}` },
      integration_type: sink.transport === 'http' ? 'webhook' : 'event_sink',
      type: sink.transport === 'http' ? 'webhook' : 'event_sink',
      hook_url: sink.url,
      transport: sink.transport,
      transport_config: sink.config,
      secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64'),
    },
  });
  const delivered = (n) => waitFor(() => seen.size >= n, 180_000, `${name}: ${n} events delivered (have ${seen.size})`, 20);

  await write(prisma, org.id, WARMUP, 0);
  await delivered(WARMUP);

  // 2. Throughput at an offered 2,000/s.
  const base = seen.size;
  const o = await offer(prisma, org.id, OFFERED, OFFER_SECONDS);
  const atOfferEnd = seen.size - base;
  await delivered(base + o.sent);
  const drained = Date.now();
  const window = [...seen.values()].slice(base).filter((a) => a.at >= o.start + RAMP_MS && a.at <= o.end);
  const latAtOffered = [...seen.values()].slice(base).map((a) => a.at - a.createdAt);
  const throughput = {
    offered_per_second: OFFERED,
    written_per_second: Math.round(o.sent / ((o.end - o.start) / 1000)),
    events: o.sent,
    sustained_per_second: Math.round(window.length / ((o.end - o.start - RAMP_MS) / 1000)),
    end_to_end_per_second: Math.round(o.sent / ((drained - o.start) / 1000)),
    backlog_at_offer_end: o.sent - atOfferEnd,
    drain_ms_after_offer: drained - o.end,
    p50_ms: pct(latAtOffered, 50),
    p99_ms: pct(latAtOffered, 99),
  };
  console.log(`${name} throughput`, throughput);

  // 3. Latency at 200/s.
  const base2 = seen.size;
  const l = await offer(prisma, org.id, RATE, SECONDS);
  await delivered(base2 + l.sent);
  const lat = [...seen.values()].slice(base2).map((a) => a.at - a.createdAt);
  const latency = {
    rate_per_second: RATE,
    seconds: SECONDS,
    events: l.sent,
    p50_ms: pct(lat, 50),
    p95_ms: pct(lat, 95),
    p99_ms: pct(lat, 99),
    max_ms: Math.max(...lat),
  };
  console.log(`${name} latency`, latency);
  const failures = await prisma.webhookAttempt.count({ where: { org_id: org.id, success: false } });
  return {
    sink: { transport: sink.transport, config: sink.config },
    throughput,
    latency,
    duplicates: arrivals - seen.size,
    failed_attempts: failures,
  };
}

async function main({ cleanups }) {
  for (const k of KIND_NAMES) if (!KINDS[k]) throw new Error(`unknown kind ${k} (known: ${Object.keys(KINDS).join(', ')})`);
  const loadBefore = loadAvg();
  const { db, prisma } = await openBenchDatabase('mapi_bench_sinks', cleanups);
  const healthPort = await freePort();
  const env = dispatcherBenchEnv(db.url, healthPort, 'sb');
  const dispatcher = AppProcess.start('webhooks-dispatcher', env);
  cleanups.push(() => dispatcher.stop());
  const relay = spawn(process.execPath, [path.join(__dirname, '..', 'webhooks', 'outbox-relay-process.js')], {
    env: { ...process.env, ...env, RELAY_LISTEN: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(async () => {
    if (relay.exitCode === null) relay.kill('SIGTERM');
  });
  const relayReady = new Promise((resolve, reject) => {
    relay.stdout.on('data', (d) => String(d).includes('relay ready') && resolve());
    relay.once('exit', (code) => reject(new Error(`relay exited ${code}`)));
  });
  await Promise.all([dispatcher.waitReady(`http://127.0.0.1:${healthPort}/health/ready`), relayReady]);

  const results = {};
  for (const name of KIND_NAMES) results[name] = await measureKind(name, { prisma, cleanups });
  const baseline = results.http;
  const ratios = {};
  if (baseline)
    for (const [name, r] of Object.entries(results)) {
      if (name === 'http') continue;
      ratios[name] = {
        sustained_vs_webhooks: +(r.throughput.sustained_per_second / baseline.throughput.sustained_per_second).toFixed(2),
        end_to_end_vs_webhooks: +(r.throughput.end_to_end_per_second / baseline.throughput.end_to_end_per_second).toFixed(2),
        p99_at_200_vs_webhooks: +(r.latency.p99_ms / baseline.latency.p99_ms).toFixed(2),
      };
    }
  const result = {
    at: new Date().toISOString(),
    load_before: loadBefore,
    load_after: loadAvg(),
    kinds: results,
    ratios,
    aims: { sustained_per_second: 2000, p99_ms_at_200_per_second: 500 },
  };
  console.log('ratios', ratios);
  console.log(`load ${loadBefore} → ${result.load_after}`);
  fs.mkdirSync(path.join(__dirname, '..', 'results'), { recursive: true });
  const file = path.join(__dirname, '..', 'results', `event-sinks-${result.at.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(result, null, 2));
  console.log(`written ${path.relative(process.cwd(), file)}`);
}

const guard = guardBench(Number(process.env.BENCH_TIMEOUT_MS || 20 * 60_000));
guard.run(() => main(guard));
