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
 * Usage: bash scripts/build.sh && node bench/chats/reactions-webhook.js
 * Knobs: BENCH_RATE (200), BENCH_SECONDS (15), BENCH_MESSAGES (400); BENCH_CPU_PROF=<dir> writes each
 * app's CPU profile there (bench/media/cpu-profile.js; summarize with bench/lib/cpuprofile-summary.js).
 * WEBHOOK_* variables pass through to the dispatcher (its defaults otherwise: 128 deliveries in flight
 * and 1,000 claims a second per endpoint). Each app's CPU seconds over the changes' run (from /proc) are in the result as cpu_s.
 * Results: stdout and bench/results/reactions-webhook-<time>.json.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { AppProcess, createTestDatabase, createOrg, createToken, freePort, testEnv, randomSuffix, randomDigits } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { startReceiver } = require('../webhooks/receiver');

const RATE = Number(process.env.BENCH_RATE || 200);
const SECONDS = Number(process.env.BENCH_SECONDS || 15);
const MESSAGES = Number(process.env.BENCH_MESSAGES || 400);
const ROOT = path.join(__dirname, '..', '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const clkTck = 100; // Linux USER_HZ
/** The process's CPU seconds so far (user + system), from /proc; null where there is no /proc. */
function cpuSeconds(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / clkTck;
  } catch {
    return null;
  }
}
const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);
const summary = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99), max: s[s.length - 1] ?? null };
};

async function until(fn, ok, timeoutMs, label) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${label}`);
    await sleep(50);
  }
}

async function main() {
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`reactions/edits → webhook: ${RATE}/s for ${SECONDS} s over ${MESSAGES} messages; load ${load()}`);
  const db = await createTestDatabase('mapi_bench_react');
  const procs = [];
  const receiver = await startReceiver();
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  try {
    const port = await freePort();
    const env = {
      DATABASE_URL: db.url, REDIS_URL: testEnv.redisUrl(), NATS_URL: testEnv.natsUrl(), NAMESPACE: `bench-react-${randomSuffix(3)}`,
      NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '1000000', SESSION_SCAN_MS: '200',
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      // the dispatcher's own settings (e.g. WEBHOOK_ENDPOINT_MAX_IN_FLIGHT) pass through; the service's defaults otherwise
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('WEBHOOK_'))),
      ...(process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--require ${path.join(__dirname, '..', 'media', 'cpu-profile.js')}`, BENCH_CPU_PROF: path.resolve(process.env.BENCH_CPU_PROF) } : {}),
    };
    const start = async (app, more = {}) => {
      const health = await freePort();
      const p = AppProcess.start(app, { ...env, HEALTH_PORT: String(health), HEALTH_HOST: '127.0.0.1', ...more });
      procs.push(p);
      await p.waitReady(`http://127.0.0.1:${health}/health/ready`, 60_000);
      return p;
    };
    await Promise.all(['phones', 'chats', 'webhooks-dispatcher'].map((a) => start(a)));
    await start('api-gateway', { PORT: String(port), HOST: '127.0.0.1' });
    const base = `http://127.0.0.1:${port}/v1`;
    const org = await createOrg(prisma);
    const { token } = await createToken(prisma, org.id);
    const call = async (method, p, body, headers = {}) => {
      const res = await fetch(`${base}${p}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const phone = (await call('POST', '/phones/create', { phone_name: 'bench' })).body.phone_id;
    const x = { 'x-phone': phone };
    await until(() => call('GET', '/phones', undefined, x), (r) => r.body?.wa_state === 'QR', 20_000, 'QR');
    await call('POST', '/sandbox/phones/scan', { number: randomDigits() }, x);
    await until(() => call('GET', '/phones', undefined, x), (r) => r.body?.wa_state === 'CONNECTED', 20_000, 'connected');

    const people = Array.from({ length: 40 }, () => randomDigits());
    const messages = [];
    for (let i = 0; i < MESSAGES; i++) {
      const r = await call('POST', '/sandbox/messages', { chat_id: people[i % people.length], body: `hello ${i}` }, x);
      messages.push(r.body);
    }
    const last = messages[messages.length - 1];
    await until(() => call('GET', `/message/${encodeURIComponent(last.message_id)}`, undefined, x), (r) => r.status === 200, 60_000, 'messages stored');

    // baseline: the same path up to the database, no webhook hop (poll GET /message/{id} until it shows)
    const direct = [];
    for (let i = 0; i < 20; i++) {
      const m = messages[i];
      const t0 = Date.now();
      await call('POST', '/sandbox/messages/edit', { unique_id: m.unique_id, body: `baseline ${i}` }, x);
      await until(() => call('GET', `/message/${encodeURIComponent(m.message_id)}`, undefined, x), (r) => r.body?.body === `baseline ${i}`, 10_000, 'edit readable');
      direct.push(Date.now() - t0);
    }

    const sub = await call('POST', '/webhooks', { hookUrl: `${receiver.url}/hook`, integrationName: ['reaction.created', 'reaction.updated', 'message.updated'] });
    if (sub.status >= 300) throw new Error(`subscribe: ${sub.status} ${JSON.stringify(sub.body)}`);
    await sleep(1_000);

    const sentAt = new Map(); // key → ms the network had the change
    const arrivals = new Map();
    const committedAt = new Map();
    receiver.state.onRequest = (entry) => {
      const e = JSON.parse(entry.body);
      const d = e.data ?? {};
      // message.updated carries the message (spec 2.1); reaction.* the ReactionType, whose message is msg_id.serialized
      const key = e.event === 'message.updated' ? `edit|${d.message_id}|${d.body}` : `react|${d.msg_id?.serialized ?? d.message_id}|${d.reaction}`;
      if (!arrivals.has(key)) arrivals.set(key, entry.at);
      // the envelope's timestamp is the event's (the outbox row's commit-time clock): splits the path in two
      const at = Date.parse(e.timestamp ?? e.created_at);
      if (!committedAt.has(key) && Number.isFinite(at)) committedAt.set(key, at);
    };
    // each pass over the messages reacts with the next emoji, so every reaction is a change (and a key of its own)
    const emojis = ['👍', '😂', '🔥', '🎉', '❤️', '😮', '😢', '🙏', '👏', '💯', '🤔', '😍'];
    const total = RATE * SECONDS;
    if (Math.ceil(total / messages.length) > emojis.length) throw new Error(`raise BENCH_MESSAGES to at least ${Math.ceil(total / emojis.length)}`);
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
        call('POST', edit ? '/sandbox/messages/edit' : '/sandbox/messages/react', edit ? { unique_id: m.unique_id, body: `edit ${i}` } : { unique_id: m.unique_id, reaction: emojis[round % emojis.length] }, x)
          .then((r) => (r.status === 200 ? sentAt.set(key, Date.now()) : failed++), () => failed++),
      );
      if (inFlight.length > 200) await Promise.all(inFlight.splice(0, 100));
    }
    await Promise.all(inFlight);
    const offered = ((total / (Date.now() - t0)) * 1000).toFixed(0);
    await until(async () => [...sentAt.keys()].filter((k) => !arrivals.has(k)).length, (n) => n === 0, 60_000, 'every change delivered').catch((e) => console.log(String(e)));
    const cpu_s = Object.fromEntries(procs.map((p, i) => [p.name, cpuBefore[i] === null ? null : Number((cpuSeconds(p.child.pid) - cpuBefore[i]).toFixed(2))]));
    const lat = { react: [], edit: [] };
    const toCommit = [];
    const commitToArrival = [];
    for (const [key, at] of sentAt) {
      if (committedAt.has(key)) toCommit.push(committedAt.get(key) - at);
      if (committedAt.has(key) && arrivals.has(key)) commitToArrival.push(arrivals.get(key) - committedAt.get(key));
    }
    let missing = 0;
    for (const [key, at] of sentAt) {
      const arrived = arrivals.get(key);
      if (arrived === undefined) missing++;
      else lat[key.split('|')[0]].push(arrived - at);
    }
    // event → receiver split by the dispatcher's own records: the event's commit → its intake (the relay
    // to NATS, the intake's batch), intake → first attempt (claim), and the attempt itself
    const [dispatch] = await prisma.$queryRawUnsafe(`
      WITH x AS (
        SELECT extract(epoch FROM e.received_at - e.created_at) * 1000 AS intake,
               extract(epoch FROM a.first - e.received_at) * 1000 AS claim
        FROM webhook_events e JOIN LATERAL (SELECT min(attempted_at) AS first FROM webhook_attempts WHERE event_id = e.id) a ON true
        WHERE e.type IN ('reaction.created', 'reaction.updated', 'message.updated'))
      SELECT count(*)::int AS n,
             percentile_disc(0.5) WITHIN GROUP (ORDER BY intake) AS intake_p50, percentile_disc(0.99) WITHIN GROUP (ORDER BY intake) AS intake_p99,
             percentile_disc(0.5) WITHIN GROUP (ORDER BY claim) AS claim_p50, percentile_disc(0.99) WITHIN GROUP (ORDER BY claim) AS claim_p99
      FROM x`);
    const result = {
      cfg: { RATE, SECONDS, MESSAGES, webhook_env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('WEBHOOK_'))) }, offered_per_s: Number(offered), load: os.loadavg(), failed, missing,
      webhook: { all: summary([...lat.react, ...lat.edit]), reactions: summary(lat.react), edits: summary(lat.edit) },
      baseline_readable: summary(direct),
      stages: { network_to_event: summary(toCommit), event_to_receiver: summary(commitToArrival), event_to_receiver_by_dispatcher_records_ms: dispatch },
      cpu_s, // each app's CPU seconds from the first change until every change arrived (or the wait gave up)
    };
    console.log(JSON.stringify(result, null, 2));
    const out = path.join(ROOT, 'bench/results', `reactions-webhook-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(result, null, 2));
    console.log(`results: ${out}; load now ${load()}`);
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await prisma.$disconnect();
    await receiver.close();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
