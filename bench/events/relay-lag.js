#!/usr/bin/env node
'use strict';
/**
 * Event commit → NATS at 200 events/s (issue 22 aim: "event commit → NATS p99 no worse than today").
 * One run, two relays in turn on a throw-away database and NATS namespace, the same writer for both:
 *  - baseline: the relay as it was before issue 22, polling the outbox every 50 ms (no LISTEN);
 *  - current: the relay as the services run it, woken by the inserting statement's pg_notify
 *    (LISTEN on its own connection), with the 10 s safety poll.
 * The writer commits BENCH_EVENTS_PER_SECOND (200) single-event transactions a second, one every
 * 1000/rate ms, for BENCH_SECONDS (15) per relay. Lag = arrival of the event on
 * <ns>.events.v1.message.created (a core subscription) − the moment its COMMIT was acknowledged to the
 * writer, so it can be slightly negative when the relay publishes before the writer's await resumes.
 * Bounded (under a minute by default), loopback only, cleans up. Build first: bash scripts/build.sh.
 * Results: stdout and bench/results/relay-lag-<time>.json (git-ignored).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomSuffix, testEnv, createOrg, stubEvents } = require('@mapi/testing');
const { OutboxRelay, ensureStreams, writeEvents } = require('@mapi/events');
const { connect } = require('nats');
const pino = require('pino');
const { openBenchDatabase } = require('../lib/database');
const { guardBench } = require('../lib/cleanup');

const RATE = Number(process.env.BENCH_EVENTS_PER_SECOND || 200);
const SECONDS = Number(process.env.BENCH_SECONDS || 15);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const r = (v) => Math.round(v * 10) / 10;
  return { n: s.length, p50: r(pct(s, 50)), p90: r(pct(s, 90)), p99: r(pct(s, 99)), max: r(s[s.length - 1]) };
};

async function phase(name, { prisma, nc, namespace, orgId, relayOptions }) {
  const logger = pino({ level: 'warn' });
  const relay = new OutboxRelay(prisma, nc, namespace, logger, relayOptions);
  active = relay;
  await relay.start();
  await sleep(500); // its LISTEN connection up
  const committed = new Map();
  const arrived = new Map();
  const sub = nc.subscribe(`${namespace}.events.v1.message.created`);
  const reading = (async () => {
    for await (const m of sub) {
      const id = m.json().data.bench_id;
      if (!arrived.has(id)) arrived.set(id, performance.now());
    }
  })();
  const total = RATE * SECONDS;
  const every = 1000 / RATE;
  const t0 = performance.now();
  const writes = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + i * every;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const id = `${name}-${i}`;
    writes.push(
      prisma
        .$transaction((tx) =>
          writeEvents(tx, stubEvents([{ type: 'message.created', org_id: orgId, phone_id: null, data: { bench_id: id } }])),
        )
        .then(() => committed.set(id, performance.now())),
    );
  }
  await Promise.all(writes);
  const deadline = Date.now() + 15_000;
  while (arrived.size < total && Date.now() < deadline) await sleep(50);
  sub.unsubscribe();
  await reading;
  await relay.stop();
  active = undefined;
  const lags = [...committed].filter(([id]) => arrived.has(id)).map(([id, at]) => arrived.get(id) - at);
  const offered = Math.round((total / ((performance.now() - t0) / 1000)) * 10) / 10;
  return { name, written: total, published: arrived.size, lost: total - arrived.size, offered_per_s: offered, lag_ms: summary(lags) };
}

let active;
const { cleanups, run } = guardBench(180_000, { onAbort: () => active?.stop() });

async function main() {
  {
    const { db, prisma } = await openBenchDatabase('mapi_bench_relay', cleanups);
    const namespace = `br${randomSuffix(3)}`;
    const nc = await connect({ servers: testEnv.natsUrl() });
    cleanups.push(() => nc.drain());
    await ensureStreams(nc, namespace);
    const org = await createOrg(prisma);
    const ctx = { prisma, nc, namespace, orgId: org.id };
    const loadBefore = os.loadavg();
    const baseline = await phase('poll-50ms', { ...ctx, relayOptions: { intervalMs: 50 } });
    const current = await phase('listen', { ...ctx, relayOptions: { listenUrl: db.url } });
    const result = {
      at: new Date().toISOString(),
      rate_per_s: RATE,
      seconds: SECONDS,
      load: { before: loadBefore, after: os.loadavg() },
      baseline,
      current,
      ratio_p99_current_over_baseline: Math.round((current.lag_ms.p99 / baseline.lag_ms.p99) * 100) / 100,
      ratio_p50_current_over_baseline: Math.round((current.lag_ms.p50 / baseline.lag_ms.p50) * 100) / 100,
    };
    console.log(JSON.stringify(result, null, 2));
    const dir = path.join(__dirname, '..', 'results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `relay-lag-${Date.now()}.json`), JSON.stringify(result, null, 2));
  }
}

run(main);
