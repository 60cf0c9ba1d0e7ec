#!/usr/bin/env node
'use strict';
/**
 * A reaction or an edit made on the network reaches a webhook receiver (issue 16 aim: p99 < 500 ms at
 * 200/s). The sandbox network's control routes play the other people: BENCH_RATE changes a second
 * (reactions and edits alternately, on BENCH_MESSAGES inbound messages) for BENCH_SECONDS. Each change
 * goes gateway → phones (the phone's session hears it from the network) → JetStream → chats ingestion
 * (the message row, the outbox event) → relay → webhooks-dispatcher → an HTTP POST to a local receiver.
 * Latency = the receiver's arrival − the moment the change was made on the network (the control
 * request's answer, when the network has it); p50/p95/p99/max per kind. The same run also times the
 * same path without a webhook hop (GET /message/{id} polled until the change shows) for 20 changes, as
 * the baseline the webhook adds to.
 *
 * Stages (per change, p50/p90/p99, and each stage's mean share among the slowest 1 % of changes — where
 * the p99 comes from), from timestamps the path leaves: the bench listens (core NATS) on the ingest and
 * events subjects, so it sees when phones published the change and when the relay published the event.
 *   phones:  network (control answer) → the phone's ingest event on NATS (may be < 0: the answer comes after)
 *   chats:   ingest event → the outbox row's created_at (the chats batch transaction's start: linger + queue)
 *   commit:  created_at → the batch's commit (its outbox NOTIFY heard by the observer: the transaction itself)
 *   relay:   commit → the event on NATS (the wake-up, the relay round)
 *   intake:  event on NATS → webhook_events.received_at (the dispatcher's consumer and batch)
 *   claim:   received_at → the attempt's attempted_at (wake-up, claim, local queue)
 *   post:    attempted_at → the receiver's arrival
 *
 * Usage: bash scripts/build.sh && node bench/chats/reactions-webhook.js
 * Knobs: BENCH_RATE (200), BENCH_SECONDS (15), BENCH_MESSAGES (400); BENCH_BEFORE_ROOT (a built checkout of
 * an earlier commit: each round runs the whole path once from it and once from this tree, in alternating
 * order, each on its own database and namespace), BENCH_ROUNDS (1); BENCH_CPU_PROF=<dir> writes each
 * app's CPU profile there (bench/media/cpu-profile.js; summarize with bench/lib/cpuprofile-summary.js).
 * WEBHOOK_* variables pass through to the dispatcher (its defaults otherwise: 128 deliveries in flight
 * and 1,000 claims a second per endpoint). Each app's CPU seconds over the changes' run (from /proc) are in the result as cpu_s.
 * Results: stdout and bench/results/reactions-webhook-<time>.json.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { fork } = require('node:child_process');
const { createTestDatabase, createOrg, createToken, freePort, testEnv, randomSuffix, randomDigits } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { startNode, waitReady, stopProc, cpuSeconds } = require('../messages/procs');

const RATE = Number(process.env.BENCH_RATE || 200);
const SECONDS = Number(process.env.BENCH_SECONDS || 15);
const MESSAGES = Number(process.env.BENCH_MESSAGES || 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 1);
const BEFORE_ROOT = process.env.BENCH_BEFORE_ROOT ? path.resolve(process.env.BENCH_BEFORE_ROOT) : '';
const ROOT = path.join(__dirname, '..', '..');
const STAMP = new Date().toISOString().replace(/[:.]/g, '-');
const STAGES = ['phones', 'chats', 'commit', 'relay', 'intake', 'claim', 'post'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);
const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p90: pct(s, 90), p95: pct(s, 95), p99: pct(s, 99), max: s[s.length - 1] ?? null };
};
/** Asks the observer process (reactions-observer.js) and waits for its answer's `field`. */
const ask = (child, message, field) =>
  new Promise((resolve) => {
    const on = (m) => {
      if (m && m[field] !== undefined) {
        child.off('message', on);
        resolve(m[field]);
      }
    };
    child.on('message', on);
    if (message !== undefined) child.send(message);
  });

async function until(fn, ok, timeoutMs, label) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${label}`);
    await sleep(50);
  }
}

/** The whole path once, its apps from the built tree at `root`. */
async function runOnce(label, root) {
  console.log(`[${label}] ${root}: ${RATE}/s for ${SECONDS} s over ${MESSAGES} messages; load ${load()}`);
  const db = await createTestDatabase('mapi_bench_react');
  const procs = [];
  // the receiver and the NATS listeners, in a process of their own (their clocks not delayed by this one's load)
  const observer = fork(path.join(__dirname, 'reactions-observer.js'), [], { stdio: 'inherit' });
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  const logDir = path.join(ROOT, 'bench/results', `reactions-webhook-logs-${STAMP}`);
  fs.mkdirSync(logDir, { recursive: true });
  try {
    const port = await freePort();
    const namespace = `bench-react-${randomSuffix(3)}`;
    const env = {
      ...process.env,
      DATABASE_URL: db.url,
      REDIS_URL: testEnv.redisUrl(),
      NATS_URL: testEnv.natsUrl(),
      NAMESPACE: namespace,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '1000000',
      SESSION_SCAN_MS: '200',
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      // the dispatcher's own settings (e.g. WEBHOOK_ENDPOINT_MAX_IN_FLIGHT) pass through from process.env; the service's defaults otherwise
      ...(process.env.BENCH_CPU_PROF
        ? {
            NODE_OPTIONS: `--require ${path.join(__dirname, '..', 'media', 'cpu-profile.js')}`,
            BENCH_CPU_PROF: path.resolve(process.env.BENCH_CPU_PROF),
          }
        : {}),
    };
    const start = async (app, more = {}) => {
      const health = await freePort();
      const p = startNode(`${app}-${label}`, path.join(root, 'apps', app, 'dist', 'main.js'), {
        cwd: root,
        env: { ...env, HEALTH_PORT: String(health), HEALTH_HOST: '127.0.0.1', ...more },
        logFile: path.join(logDir, `${app}-${label}.log`),
      });
      procs.push(p);
      await waitReady(p, `http://127.0.0.1:${health}/health/ready`, { timeoutMs: 60_000 });
      return p;
    };
    await Promise.all(['phones', 'chats', 'webhooks-dispatcher'].map((a) => start(a)));
    await start('api-gateway', { PORT: String(port), HOST: '127.0.0.1' });
    const base = `http://127.0.0.1:${port}/v1`;
    const org = await createOrg(prisma);
    const { token } = await createToken(prisma, org.id);
    const call = async (method, p, body, headers = {}) => {
      const res = await fetch(`${base}${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const phone = (await call('POST', '/phones/create', { phone_name: 'bench' })).body.phone_id;
    const x = { 'x-phone': phone };
    await until(
      () => call('GET', '/phones', undefined, x),
      (r) => r.body?.wa_state === 'QR',
      20_000,
      'QR',
    );
    await call('POST', '/sandbox/phones/scan', { number: randomDigits() }, x);
    await until(
      () => call('GET', '/phones', undefined, x),
      (r) => r.body?.wa_state === 'CONNECTED',
      20_000,
      'connected',
    );

    const people = Array.from({ length: 40 }, () => randomDigits());
    const messages = [];
    for (let i = 0; i < MESSAGES; i++) {
      const r = await call('POST', '/sandbox/messages', { chat_id: people[i % people.length], body: `hello ${i}` }, x);
      messages.push(r.body);
    }
    const messageIdOf = new Map(messages.map((m) => [m.unique_id, m.message_id]));
    const last = messages[messages.length - 1];
    await until(
      () => call('GET', `/message/${encodeURIComponent(last.message_id)}`, undefined, x),
      (r) => r.status === 200,
      60_000,
      'messages stored',
    );

    // baseline: the same path up to the database, no webhook hop (poll GET /message/{id} until it shows)
    const direct = [];
    for (let i = 0; i < 20; i++) {
      const m = messages[i];
      const t0 = Date.now();
      await call('POST', '/sandbox/messages/edit', { unique_id: m.unique_id, body: `baseline ${i}` }, x);
      await until(
        () => call('GET', `/message/${encodeURIComponent(m.message_id)}`, undefined, x),
        (r) => r.body?.body === `baseline ${i}`,
        10_000,
        'edit readable',
      );
      direct.push(Date.now() - t0);
    }

    const receiverUrl = await ask(
      observer,
      { namespace, natsUrl: testEnv.natsUrl(), databaseUrl: db.url, messageIds: [...messageIdOf] },
      'url',
    );
    const sub = await call('POST', '/webhooks', {
      hookUrl: `${receiverUrl}/hook`,
      integrationName: ['reaction.created', 'reaction.updated', 'message.updated'],
    });
    if (sub.status >= 300) throw new Error(`subscribe: ${sub.status} ${JSON.stringify(sub.body)}`);
    await sleep(1_000);

    const sentAt = new Map(); // key → ms the network had the change
    // each pass over the messages reacts with the next emoji, so every reaction is a change (and a key of its own)
    const emojis = ['👍', '😂', '🔥', '🎉', '❤️', '😮', '😢', '🙏', '👏', '💯', '🤔', '😍'];
    const total = RATE * SECONDS;
    if (Math.ceil(total / messages.length) > emojis.length)
      throw new Error(`raise BENCH_MESSAGES to at least ${Math.ceil(total / emojis.length)}`);
    const cpuBefore = procs.map((p) => cpuSeconds(p.child.pid));
    const t0 = Date.now();
    const inFlight = [];
    let failed = 0;
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      const m = messages[i % messages.length];
      const round = Math.floor(i / messages.length);
      const edit = i % 2 === 1;
      const key = edit ? `edit|${m.message_id}|edit ${i}` : `react|${m.message_id}|${emojis[round % emojis.length]}`;
      inFlight.push(
        call(
          'POST',
          edit ? '/sandbox/messages/edit' : '/sandbox/messages/react',
          edit ? { unique_id: m.unique_id, body: `edit ${i}` } : { unique_id: m.unique_id, reaction: emojis[round % emojis.length] },
          x,
        ).then(
          (r) => (r.status === 200 ? sentAt.set(key, Date.now()) : failed++),
          () => failed++,
        ),
      );
      if (inFlight.length > 200) await Promise.all(inFlight.splice(0, 100));
    }
    await Promise.all(inFlight);
    const offered = ((total / (Date.now() - t0)) * 1000).toFixed(0);
    await until(
      async () => new Set(await ask(observer, 'arrived', 'arrived')),
      (got) => [...sentAt.keys()].every((k) => got.has(k)),
      60_000,
      'every change delivered',
    ).catch((e) => console.log(String(e)));
    const cpu_s = Object.fromEntries(
      procs.map((p, i) => [p.name, cpuBefore[i] === null ? null : Number((cpuSeconds(p.child.pid) - cpuBefore[i]).toFixed(2))]),
    );
    const at = Object.fromEntries(Object.entries(await ask(observer, 'report', 'report')).map(([k, v]) => [k, new Map(v)]));
    const eventOf = at.event;
    // the dispatcher's own records of each delivered event: its intake, and the first attempt
    const rows = await prisma.$queryRawUnsafe(`
      SELECT e.id::text AS id, extract(epoch FROM e.received_at) * 1000 AS received, extract(epoch FROM min(a.attempted_at)) * 1000 AS attempted
      FROM webhook_events e JOIN webhook_attempts a ON a.event_id = e.id
      WHERE e.type IN ('reaction.created', 'reaction.updated', 'message.updated') GROUP BY e.id, e.received_at`);
    const dispatcher = new Map(rows.map((r) => [r.id, { received: Number(r.received), attempted: Number(r.attempted) }]));

    const lat = { react: [], edit: [] };
    const perStage = Object.fromEntries(STAGES.map((s) => [s, []]));
    const complete = []; // { total, stages } for changes every timestamp is known of
    let missing = 0;
    for (const [key, sent] of sentAt) {
      const arrived = at.arrival.get(key);
      if (arrived === undefined) {
        missing++;
        continue;
      }
      lat[key.split('|')[0]].push(arrived - sent);
      const d = dispatcher.get(eventOf.get(key));
      const marks = [
        sent,
        at.ingest.get(key),
        at.created.get(key),
        at.committed.get(key),
        at.published.get(key),
        d?.received,
        d?.attempted,
        arrived,
      ];
      const stages = {};
      STAGES.forEach((s, i) => {
        if (marks[i] !== undefined && marks[i + 1] !== undefined) perStage[s].push((stages[s] = marks[i + 1] - marks[i]));
      });
      if (Object.keys(stages).length === STAGES.length) complete.push({ total: arrived - sent, stages });
    }
    // where the tail comes from: each stage's mean among the slowest 1 % of changes
    complete.sort((a, b) => b.total - a.total);
    const slowest = complete.slice(0, Math.max(1, Math.ceil(complete.length / 100)));
    const mean = (xs) => (xs.length ? Math.round(xs.reduce((a, b) => a + b, 0) / xs.length) : null);
    const tail = {
      n: slowest.length,
      total_ms: mean(slowest.map((c) => c.total)),
      stages_ms: Object.fromEntries(STAGES.map((s) => [s, mean(slowest.map((c) => c.stages[s]))])),
    };
    const result = {
      label,
      root,
      load: os.loadavg(),
      cfg: {
        RATE,
        SECONDS,
        MESSAGES,
        webhook_env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('WEBHOOK_'))),
      },
      offered_per_s: Number(offered),
      failed,
      missing,
      webhook: { all: summary([...lat.react, ...lat.edit]), reactions: summary(lat.react), edits: summary(lat.edit) },
      baseline_readable: summary(direct),
      stages: Object.fromEntries(STAGES.map((s) => [s, summary(perStage[s])])),
      slowest_1pct: tail,
      cpu_s, // each app's CPU seconds from the first change until every change arrived (or the wait gave up)
    };
    const s = result.webhook.all;
    console.log(
      `[${label}] offered ${offered}/s, ${failed} failed, ${missing} missing; p50 ${s.p50} / p90 ${s.p90} / p99 ${s.p99} / max ${s.max} ms; load ${load()}`,
    );
    for (const st of STAGES)
      console.log(
        `  ${st.padEnd(7)} p50 ${result.stages[st].p50} / p90 ${result.stages[st].p90} / p99 ${result.stages[st].p99} ms; in the slowest 1 %: ${tail.stages_ms[st]} ms`,
      );
    console.log(`  slowest 1 % (${tail.n}): ${tail.total_ms} ms on average; cpu_s ${JSON.stringify(cpu_s)}`);
    return result;
  } finally {
    await Promise.all(procs.map((p) => stopProc(p)));
    observer.kill();
    await prisma.$disconnect();
    await db.drop();
  }
}

async function main() {
  const trees = BEFORE_ROOT
    ? [
        ['before', BEFORE_ROOT],
        ['now', ROOT],
      ]
    : [['now', ROOT]];
  const results = [];
  for (let round = 0; round < ROUNDS; round++) {
    // the order alternates by round, so neither tree always runs first
    for (const [label, root] of round % 2 ? [...trees].reverse() : trees) results.push({ round, ...(await runOnce(label, root)) });
  }
  console.log('\nsummary (p50 / p90 / p99 / max to the receiver, ms):');
  for (const r of results)
    console.log(
      `  round ${r.round + 1} ${r.label.padEnd(6)} ${r.webhook.all.p50} / ${r.webhook.all.p90} / ${r.webhook.all.p99} / ${r.webhook.all.max}  offered ${r.offered_per_s}/s  missing ${r.missing}  load ${r.load.map((l) => l.toFixed(2)).join(' ')}`,
    );
  const out = path.join(ROOT, 'bench/results', `reactions-webhook-${STAMP}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(results.length === 1 ? results[0] : results, null, 2));
  console.log(`results: ${out}; load now ${load()}`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
