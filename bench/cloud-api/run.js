#!/usr/bin/env node
'use strict';
/**
 * Cloud API connector benchmark (issue 35's aims), against the fake Graph API on loopback:
 *  1. inbound: Meta's signed callbacks (one text message each, BENCH_CUSTOMERS customers) POSTed to
 *     /v1/cloud-api/webhook/{phone_id} open-loop at BENCH_INBOUND_RATE (500)/s for BENCH_INBOUND_SECONDS
 *     (10 s): the answer's time (aim p99 < 50 ms) and the time until each message is readable through
 *     GET /v1/chats/{chat_id}/messages (aim p99 < 1 s; each chat polled every BENCH_POLL_MS, 100 ms,
 *     which the figure includes);
 *  2. sends: POST /v1/message/send of free text to BENCH_CUSTOMERS customers (the inbound run's, their
 *     windows open; without it new ones, whose windows are unknown to a phone younger than 24 h, so they
 *     go) open-loop at BENCH_SEND_RATE (80)/s — the Cloud API's throughput for one number — for
 *     BENCH_SEND_SECONDS (30 s), the queue's send workers killed (SIGKILL) at BENCH_KILL_AT (0.4; above 1: never) of the
 *     run and started again: every send answered 200 must reach the fake exactly once (none lost, none
 *     doubled). Printed: the rate at the fake (over the 10–90 % of arrivals, before the kill, overall),
 *     and the time from each send's 200 ("accepted") to its arrival at the fake, p50/p99 (all, and the
 *     sends accepted before the kill).
 * BENCH_RUNS (inbound,sends): which runs. BENCH_KILL (worker): `worker` runs the queue as an API process
 * and a workers' process and kills the latter; `queue` kills the one queue process (its requests fail
 * while it restarts). BENCH_DRAIN_S (300): how long the sends may take to reach the fake after the last request.
 * Processes: chats, phones, queue (one or two), api-gateway (bench/cloud-api/stack.js). The queue paces
 * the Cloud API phone by its connector: CLOUD_API_SEND_RATE_PER_S (BENCH_CLOUD_RATE, else the default 80),
 * no jitter, with CLOUD_API_SEND_CONCURRENCY (BENCH_CLOUD_CONCURRENCY, else the default) sends in flight
 * at once, one per chat; BENCH_SEND_INTERVAL_MS instead paces every phone at that interval without jitter
 * (the run before the per-connector pace). Also printed: the sends that reached Meta before a send to their
 * chat accepted (answered 200) before they were posted (`chat_order_overtaken`: requests in flight together may
 * be queued either way; a crash may add a few, the killed workers' jobs being taken up again after
 * QUEUE_JOB_LOCK_MS, after later ones).
 * BENCH_GRAPH_DELAY_MS (0): Meta's round trip, each message send held that long by a proxy (stack.js).
 * Usage: bash scripts/build.sh && node bench/cloud-api/run.js. Writes bench/results/cloud-api-<time>.json.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { createHmac } = require('node:crypto');
const { callbackPayload, textMessageValue, randomDigits } = require('@mapi/testing');
const { guardBench } = require('../lib/cleanup');
const { sleep, loadAvg, pct, waitFor } = require('../lib/waiting');
const { startCloudApiStack } = require('./stack');

const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  inboundRate: num('BENCH_INBOUND_RATE', 500),
  inboundSeconds: num('BENCH_INBOUND_SECONDS', 10),
  customers: num('BENCH_CUSTOMERS', 10),
  pollMs: num('BENCH_POLL_MS', 100),
  sendRate: num('BENCH_SEND_RATE', 80),
  sendSeconds: num('BENCH_SEND_SECONDS', 30),
  killAt: num('BENCH_KILL_AT', 0.4),
  kill: process.env.BENCH_KILL ?? 'worker',
  sendIntervalMs: num('BENCH_SEND_INTERVAL_MS', null),
  cloudRate: num('BENCH_CLOUD_RATE', null),
  cloudConcurrency: num('BENCH_CLOUD_CONCURRENCY', null),
  graphDelayMs: num('BENCH_GRAPH_DELAY_MS', 0),
  runs: (process.env.BENCH_RUNS ?? 'inbound,sends').split(','),
  drainSeconds: num('BENCH_DRAIN_S', 300),
};
const log = (...a) => console.log(...a);
const { cleanups, run } = guardBench(900_000);
const ms = (xs) => ({ p50: +pct(xs, 50).toFixed(1), p99: +pct(xs, 99).toFixed(1), max: +Math.max(...xs).toFixed(1), n: xs.length });

/** Fires `fire(i)` open-loop at `rate`/s for `seconds`; `at(fraction)` hooks run once that share of the run has gone. */
async function openLoop(rate, seconds, fire, hooks = []) {
  const t0 = Date.now();
  const total = Math.round(rate * seconds);
  let fired = 0;
  const pending = [...hooks];
  while (fired < total) {
    const due = Math.min(total, Math.floor(((Date.now() - t0) * rate) / 1000));
    while (fired < due) fire(fired++);
    while (pending.length && fired >= pending[0].at * total) pending.shift().run();
    await sleep(2);
  }
  return { fired, ms: Date.now() - t0 };
}

async function inbound(s) {
  const customers = Array.from({ length: CFG.customers }, () => randomDigits());
  const sentAt = new Map();
  const seenAt = new Map();
  const answers = [];
  const url = `/cloud-api/webhook/${s.phoneId}`;
  const fire = (i) => {
    const body = `in-${i}`;
    const raw = Buffer.from(
      JSON.stringify(callbackPayload(s.number, textMessageValue(customers[(i + customers.length * 10) % customers.length], body))),
    );
    const signature = `sha256=${createHmac('sha256', s.creds.app_secret).update(raw).digest('hex')}`;
    sentAt.set(body, Date.now());
    s.request('POST', url, null, { 'x-hub-signature-256': signature }, raw).then((r) => answers.push(r));
  };
  let polling = true;
  const poll = async (customer) => {
    while (polling) {
      const r = await s.request('GET', `/chats/${customer}@c.us/messages?limit=500`, null, { 'x-phone': s.phoneId });
      const now = Date.now();
      if (r.status === 200) for (const m of JSON.parse(r.body).messages) if (!seenAt.has(m.body)) seenAt.set(m.body, now);
      await sleep(CFG.pollMs);
    }
  };
  const pollers = customers.map(poll);
  // warm-up: one message per customer, readable before the clock starts
  for (let w = 0; w < customers.length; w++) fire(-1 - w);
  await waitFor(() => customers.every((_, w) => seenAt.has(`in-${-1 - w}`)), 60_000, 'warm-up readable').catch((e) => {
    polling = false;
    throw new Error(`${e.message}: callbacks answered ${JSON.stringify(answers.map((a) => [a.status, a.body?.slice(0, 200)]))}`);
  });
  answers.length = 0;
  log(`inbound: ${CFG.inboundRate}/s for ${CFG.inboundSeconds} s over ${customers.length} chats (load ${loadAvg()})`);
  const loop = await openLoop(CFG.inboundRate, CFG.inboundSeconds, fire);
  await waitFor(() => answers.length >= loop.fired, 120_000, 'every callback answered');
  const bodies = Array.from({ length: loop.fired }, (_, i) => `in-${i}`);
  await waitFor(() => bodies.every((b) => seenAt.has(b)), 30_000, 'every message readable').catch((e) => log(`  ${e.message}`));
  polling = false;
  await Promise.all(pollers);
  const ok = answers.filter((a) => a.status === 200);
  const statuses = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const result = {
    offered_per_second: CFG.inboundRate,
    achieved_per_second: Math.round(loop.fired / (loop.ms / 1000)),
    callbacks: loop.fired,
    statuses,
    answer_ms: ms(ok.map((a) => a.ms)),
    readable_ms: ms(bodies.filter((b) => seenAt.has(b)).map((b) => seenAt.get(b) - sentAt.get(b))),
    not_readable: bodies.filter((b) => !seenAt.has(b)).length,
  };
  log('  ', JSON.stringify(result));
  return { result, customers };
}

async function sends(s, customers) {
  const postedAt = new Map();
  const answered = [];
  // arrivals at the fake (in this process), timed as the fake takes each message, in the order it took them
  const arrivedAt = new Map();
  const counts = new Map();
  const arrivals = [];
  const accepted0 = s.graph.accepted;
  const push = accepted0.push.bind(accepted0);
  accepted0.push = (...items) => {
    const now = Date.now();
    for (const item of items) {
      const text = item.body.text?.body;
      if (!text?.startsWith('out-')) continue;
      counts.set(text, (counts.get(text) ?? 0) + 1);
      if (!arrivedAt.has(text)) {
        arrivedAt.set(text, now);
        arrivals.push(now);
      }
    }
    return push(...items);
  };
  const fire = (i) => {
    const body = `out-${i}`;
    postedAt.set(body, Date.now());
    s.request('POST', '/message/send', { chat_id: customers[i % customers.length], message: body }, { 'x-phone': s.phoneId }).then((r) =>
      answered.push({ ...r, text: body, at: Date.now() }),
    );
  };
  log(`sends: ${CFG.sendRate}/s for ${CFG.sendSeconds} s, queue (${CFG.kill}) killed at ${CFG.killAt * 100}% (load ${loadAvg()})`);
  let killed = null;
  const t0 = Date.now();
  const loop = await openLoop(CFG.sendRate, CFG.sendSeconds, fire, [
    {
      at: CFG.killAt,
      run: () => {
        const k0 = Date.now();
        killed = { at_ms: k0 - t0, arrived_before: arrivedAt.size };
        void s.restartQueue().then(() => (killed.back_after_ms = Date.now() - k0));
      },
    },
  ]);
  await waitFor(() => answered.length >= loop.fired, 120_000, 'every send answered');
  const accepted = answered.filter((a) => a.status === 200);
  await waitFor(() => accepted.every((a) => arrivedAt.has(a.text)), CFG.drainSeconds * 1000, 'every accepted send at Meta').catch((e) =>
    log(`  ${e.message}`),
  );
  await sleep(3_000); // a late double would show now
  accepted0.push = push;
  const statuses = {};
  for (const a of answered) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  // arrivals a second: between the 10th and 90th percent of them, from the first second to the kill, overall
  const perSecond = (from, to) =>
    to > from ? +((arrivals.filter((t) => t >= from && t <= to).length * 1000) / (to - from)).toFixed(1) : null;
  // per chat, sends that reached Meta before one accepted (answered 200) before they were even posted: those
  // two were queued in that order for sure (requests in flight together may be queued either way)
  const byChat = new Map();
  for (const a of accepted) {
    if (!arrivedAt.has(a.text)) continue;
    const chat = customers[Number(a.text.slice(4)) % customers.length];
    byChat.set(chat, [...(byChat.get(chat) ?? []), { posted: postedAt.get(a.text), answered: a.at, arrived: arrivedAt.get(a.text) }]);
  }
  let overtaken = 0;
  for (const xs of byChat.values()) for (const b of xs) if (xs.some((a) => a.answered < b.posted && a.arrived > b.arrived)) overtaken++;
  const n = arrivals.length;
  const killAt = killed ? t0 + killed.at_ms : null;
  const arrivedAccepted = accepted.filter((a) => arrivedAt.has(a.text));
  const acceptToMeta = (xs) => ms(xs.map((a) => arrivedAt.get(a.text) - a.at));
  const result = {
    offered_per_second: CFG.sendRate,
    sends: loop.fired,
    offered_ms: loop.ms,
    statuses,
    request_ms: ms(accepted.map((a) => a.ms)),
    at_meta_per_second_10_90: n >= 10 ? perSecond(arrivals[Math.floor(n * 0.1)], arrivals[Math.floor(n * 0.9)]) : null,
    at_meta_per_second_before_kill: killAt ? perSecond(t0 + 1_000, killAt) : null,
    at_meta_per_second_overall: n >= 2 ? perSecond(arrivals[0], arrivals[n - 1]) : null,
    // once no more sends are offered, the backlog drains at what the workers alone can do
    at_meta_per_second_draining: n >= 2 && arrivals[n - 1] > t0 + loop.ms ? perSecond(t0 + loop.ms, arrivals[n - 1]) : null,
    at_meta_each_second: Array.from({ length: Math.ceil(((n ? arrivals[n - 1] : t0) - t0) / 1000) }, (_, i) =>
      arrivals.reduce((k, t) => k + (t >= t0 + i * 1000 && t < t0 + (i + 1) * 1000 ? 1 : 0), 0),
    ),
    accept_to_meta_ms: acceptToMeta(arrivedAccepted),
    accept_to_meta_ms_before_kill: killAt ? acceptToMeta(arrivedAccepted.filter((a) => a.at < killAt)) : null,
    request_to_meta_ms: ms(arrivedAccepted.map((a) => arrivedAt.get(a.text) - postedAt.get(a.text))),
    lost: accepted.filter((a) => !arrivedAt.has(a.text)).length,
    // a request that timed out at the gateway may still have been queued: the client cannot know; Meta got it once or not at all
    not_answered_200_but_sent: answered.filter((a) => a.status !== 200 && arrivedAt.has(a.text)).length,
    doubled: [...counts.values()].filter((c) => c > 1).length,
    chat_order_overtaken: overtaken,
    queue_killed: killed,
  };
  log('  ', JSON.stringify(result));
  return result;
}

async function main() {
  const load_start = loadAvg();
  const s = await startCloudApiStack(
    cleanups,
    {
      ...(CFG.sendIntervalMs !== null ? { QUEUE_SEND_INTERVAL_MS: String(CFG.sendIntervalMs), QUEUE_SEND_JITTER_MS: '0' } : {}),
      ...(CFG.cloudRate !== null ? { CLOUD_API_SEND_RATE_PER_S: String(CFG.cloudRate) } : {}),
      ...(CFG.cloudConcurrency !== null ? { CLOUD_API_SEND_CONCURRENCY: String(CFG.cloudConcurrency) } : {}),
      QUEUE_JOB_LOCK_MS: '5000',
      QUEUE_RETRY_BACKOFF_MS: '200',
    },
    { workerApart: CFG.kill === 'worker', graphDelayMs: CFG.graphDelayMs },
  );
  const inboundResult = CFG.runs.includes('inbound') ? await inbound(s) : null;
  const customers = inboundResult?.customers ?? Array.from({ length: CFG.customers }, () => randomDigits());
  const sendResult = CFG.runs.includes('sends') ? await sends(s, customers) : null;
  const out = path.join(__dirname, '..', 'results', `cloud-api-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    JSON.stringify(
      { cfg: CFG, load_start, load_end: loadAvg(), cpus: os.cpus().length, inbound: inboundResult?.result ?? null, sends: sendResult },
      null,
      2,
    ),
  );
  log(`results: ${out}; load ${loadAvg()}`);
}

run(main);
