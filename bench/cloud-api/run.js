#!/usr/bin/env node
'use strict';
/**
 * Cloud API connector benchmark (issue 35's aims), against the fake Graph API on loopback:
 *  1. inbound: Meta's signed callbacks (one text message each, BENCH_CUSTOMERS customers) POSTed to
 *     /v1/cloud-api/webhook/{phone_id} open-loop at BENCH_INBOUND_RATE (500)/s for BENCH_INBOUND_SECONDS
 *     (10 s): the answer's time (aim p99 < 50 ms) and the time until each message is readable through
 *     GET /v1/chats/{chat_id}/messages (aim p99 < 1 s; each chat polled every BENCH_POLL_MS, 100 ms,
 *     which the figure includes);
 *  2. sends: POST /v1/message/send of free text to those customers (their windows open) at
 *     BENCH_SEND_RATE (80)/s — the Cloud API's throughput for one number — for BENCH_SEND_SECONDS (20 s),
 *     the queue process killed (SIGKILL) at BENCH_KILL_AT (0.4) of the run and started again: every
 *     send answered 200 must reach the fake exactly once (none lost, none doubled); the rate at the fake
 *     in the steady middle and the time from the request to Meta are printed.
 * BENCH_DRAIN_S (300): how long the sends may take to reach the fake after the last request.
 * Processes: chats, phones, queue, api-gateway (bench/cloud-api/stack.js); the queue paces the phone
 * at BENCH_SEND_INTERVAL_MS (12) with no jitter (the default pace is for linked devices).
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
  sendSeconds: num('BENCH_SEND_SECONDS', 20),
  killAt: num('BENCH_KILL_AT', 0.4),
  sendIntervalMs: num('BENCH_SEND_INTERVAL_MS', 12),
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
  // arrivals at the fake (in this process): sampled often, in the order Meta's side received them
  const arrivedAt = new Map();
  const counts = new Map();
  let seen = 0;
  const samples = [];
  const sample = setInterval(() => {
    const now = Date.now();
    for (; seen < s.graph.accepted.length; seen++) {
      const text = s.graph.accepted[seen].body.text?.body;
      if (!text?.startsWith('out-')) continue;
      counts.set(text, (counts.get(text) ?? 0) + 1);
      if (!arrivedAt.has(text)) arrivedAt.set(text, now);
    }
    samples.push([now, arrivedAt.size]);
  }, 10);
  cleanups.push(async () => clearInterval(sample));
  const fire = (i) => {
    const body = `out-${i}`;
    postedAt.set(body, Date.now());
    s.request('POST', '/message/send', { chat_id: customers[i % customers.length], message: body }, { 'x-phone': s.phoneId }).then((r) =>
      answered.push({ ...r, text: body }),
    );
  };
  log(`sends: ${CFG.sendRate}/s for ${CFG.sendSeconds} s, queue killed at ${CFG.killAt * 100}% (load ${loadAvg()})`);
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
  clearInterval(sample);
  const statuses = {};
  for (const a of answered) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const first = samples.find(([, n]) => n >= accepted.length * 0.1);
  const last = samples.find(([, n]) => n >= accepted.length * 0.9);
  const result = {
    offered_per_second: CFG.sendRate,
    sends: loop.fired,
    statuses,
    request_ms: ms(accepted.map((a) => a.ms)),
    at_meta_per_second_10_90: first && last ? Math.round((last[1] - first[1]) / ((last[0] - first[0]) / 1000)) : null,
    request_to_meta_ms: ms(accepted.filter((a) => arrivedAt.has(a.text)).map((a) => arrivedAt.get(a.text) - postedAt.get(a.text))),
    lost: accepted.filter((a) => !arrivedAt.has(a.text)).length,
    // a request that timed out at the gateway may still have been queued: the client cannot know; Meta got it once or not at all
    not_answered_200_but_sent: answered.filter((a) => a.status !== 200 && arrivedAt.has(a.text)).length,
    doubled: [...counts.values()].filter((n) => n > 1).length,
    queue_killed: killed,
  };
  log('  ', JSON.stringify(result));
  return result;
}

async function main() {
  const load_start = loadAvg();
  const s = await startCloudApiStack(cleanups, {
    QUEUE_SEND_INTERVAL_MS: String(CFG.sendIntervalMs),
    QUEUE_SEND_JITTER_MS: '0',
    QUEUE_JOB_LOCK_MS: '5000',
    QUEUE_RETRY_BACKOFF_MS: '200',
  });
  const inboundResult = await inbound(s);
  const sendResult = await sends(s, inboundResult.customers);
  const out = path.join(__dirname, '..', 'results', `cloud-api-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(
    out,
    JSON.stringify(
      { cfg: CFG, load_start, load_end: loadAvg(), cpus: os.cpus().length, inbound: inboundResult.result, sends: sendResult },
      null,
      2,
    ),
  );
  log(`results: ${out}; load ${loadAvg()}`);
}

run(main);
