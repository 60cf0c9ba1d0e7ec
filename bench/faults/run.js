#!/usr/bin/env node
'use strict';
/**
 * Faults of the ground (issue 32's aims): a stack (gateway, chats, phones, queue, webhooks dispatcher,
 * automation, inbox) on a Postgres, a nats-server and a redis-server of the bench's own, under an
 * open-loop load — inbound messages on the sandbox network at BENCH_IN_RATE (200/s), sends at
 * BENCH_SEND_RATE (50/s), GET messages at BENCH_GET_RATE (100/s), every inbound message subscribed to
 * a webhook; inbound messages at BENCH_WORKFLOW_RATE (5/s) on a second phone, each on a chat of its
 * own, each starting a workflow `delay BENCH_WORKFLOW_DELAY_S (3) seconds → send_message_to_chat`
 * (the reply to that chat); todo tasks created at BENCH_REMINDER_RATE (5/s) with remind_at
 * BENCH_REMINDER_LEAD_MS (5000) ahead, `task.reminder` subscribed to a webhook (so delayed steps and
 * reminders come due all through the run, faults included) — while each fault runs BENCH_REPEAT (3)
 * times for BENCH_DOWN_MS (5000): Postgres fast and immediate shutdown; nats-server SIGKILL on its
 * store and a restart on an empty store; Redis restarted with its data and empty. No app is
 * restarted. Counted afterwards: every accepted inbound message and send stored exactly once, every
 * accepted inbound message at the webhook, every accepted workflow trigger's reply on the network
 * exactly once, every accepted task's reminder fired (its task.reminder event) exactly once and at
 * the webhook, answers by status, and per fault the time from the dependency's return to the first
 * 2xx of each kind of request. (bench/faults/timed-work.js: the workflow and the reminders.)
 *
 * Usage: bash scripts/build.sh && node bench/faults/run.js
 * Knobs (env): BENCH_IN_RATE, BENCH_SEND_RATE, BENCH_GET_RATE, BENCH_WORKFLOW_RATE, BENCH_WORKFLOW_DELAY_S,
 *   BENCH_REMINDER_RATE, BENCH_REMINDER_LEAD_MS (a rate of 0 leaves that load out), BENCH_REPEAT,
 *   BENCH_DOWN_MS, BENCH_FAULTS (comma list of pg-fast,pg-immediate,nats-kill,nats-empty,redis-restart,
 *   redis-empty), BENCH_SETTLE_MS (300000: how long to wait afterwards for every message and webhook,
 *   and again for every workflow reply and reminder).
 * Writes bench/results/faults-<time>.json.
 */
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');
const { applyMigrations } = require('@mapi/db');
const { AppProcess, PrivateNats, PrivatePostgres, PrivateRedis, createOrg, createToken, freePort, randomDigits } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { startReceiver } = require('../webhooks/receiver');
const { guardBench } = require('../lib/cleanup');
const timed = require('./timed-work');

const ROOT = path.join(__dirname, '..', '..');
const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const CFG = {
  inRate: num('BENCH_IN_RATE', 200),
  sendRate: num('BENCH_SEND_RATE', 50),
  getRate: num('BENCH_GET_RATE', 100),
  workflowRate: num('BENCH_WORKFLOW_RATE', 5),
  workflowDelayS: num('BENCH_WORKFLOW_DELAY_S', 3),
  reminderRate: num('BENCH_REMINDER_RATE', 5),
  reminderLeadMs: num('BENCH_REMINDER_LEAD_MS', 5000),
  repeat: num('BENCH_REPEAT', 3),
  downMs: num('BENCH_DOWN_MS', 5000),
  settleMs: num('BENCH_SETTLE_MS', 300_000),
  faults: (process.env.BENCH_FAULTS || 'pg-fast,pg-immediate,nats-kill,nats-empty,redis-restart,redis-empty').split(','),
};
const SERVICES = ['chats', 'phones', 'queue', 'webhooks-dispatcher', 'automation', 'inbox'];
const log = (...a) => console.log(...a);
const { sleep, loadAvg: load, pct, waitFor: waitForEvery } = require('../lib/waiting');
const { cleanups, run } = guardBench(3_600_000);

const waitFor = (fn, timeoutMs, label) => waitForEvery(fn, timeoutMs, label, 200);

async function main() {
  log(
    `faults bench: ${CFG.faults.join(', ')} × ${CFG.repeat}, ${CFG.downMs} ms each, under ${CFG.inRate} in/s, ${CFG.sendRate} sends/s, ${CFG.getRate} GET/s, ${CFG.workflowRate} workflow triggers/s (delay ${CFG.workflowDelayS} s), ${CFG.reminderRate} reminders/s (lead ${CFG.reminderLeadMs} ms); load ${load()}`,
  );
  const [pg, nats, redis] = await Promise.all([PrivatePostgres.start(), PrivateNats.start(), PrivateRedis.start()]);
  cleanups.push(() => Promise.all([pg.destroy(), nats.destroy(), redis.destroy()]));
  const admin = new Client({ connectionString: pg.url() });
  await admin.connect();
  await admin.query('CREATE DATABASE mapi');
  await admin.end();
  await applyMigrations({ url: pg.url('mapi') });
  const prisma = createPrismaClient({ url: pg.url('mapi'), poolSize: 2 });
  cleanups.push(() => prisma.$disconnect());
  const receiver = await startReceiver();
  cleanups.push(() => receiver.close());
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: pg.url('mapi'),
    REDIS_URL: redis.url,
    NATS_URL: nats.url,
    NAMESPACE: `bench-faults-${randomBytes(3).toString('hex')}`,
    RATE_LIMIT_PER_SECOND: '1000000',
    QUEUE_SEND_INTERVAL_MS: '5',
    QUEUE_SEND_JITTER_MS: '0',
    WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    // the organization's workflow-run limit (600/min) is not what is measured: a run over it is skipped, which would read as lost
    AUTOMATION_RUNS_PER_MINUTE: '1000000',
  };
  const running = [];
  cleanups.push(() => Promise.all(running.map((p) => p.stop())));
  for (const app of SERVICES) {
    const healthPort = await freePort();
    const proc = AppProcess.start(app, { ...env, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' });
    running.push(proc);
    await proc.waitReady(`http://127.0.0.1:${healthPort}/health/ready`, 120_000);
  }
  const port = await freePort();
  const gateway = AppProcess.start('api-gateway', {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    HEALTH_PORT: String(await freePort()),
    HEALTH_HOST: '127.0.0.1',
  });
  running.push(gateway);
  await gateway.waitReady(`http://127.0.0.1:${port}/health/ready`, 120_000);

  const org = await createOrg(prisma, { plan: 'enterprise' });
  const { token } = await createToken(prisma, org.id);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const request = (method, p, body, headers = {}) =>
    new Promise((resolve) => {
      const data = body ? JSON.stringify(body) : undefined;
      const req = http.request(
        `http://127.0.0.1:${port}/v1${p}`,
        {
          method,
          agent,
          headers: { authorization: `Bearer ${token}`, ...(data ? { 'content-type': 'application/json' } : {}), ...headers },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', (e) => resolve({ status: `response ${e.code ?? e.message}` }));
          // A response cut off by the client's timeout ends with 'close' and neither 'end' nor 'error'
          // (a settled promise ignores the later call): every request is counted answered, whatever came.
          res.on('close', () => resolve({ status: res.complete ? res.statusCode : 'response cut off' }));
        },
      );
      req.on('error', (e) => resolve({ status: `request ${e.code ?? e.message}` }));
      req.setTimeout(60_000, () => req.destroy(new Error('client timeout 60 s')));
      req.end(data);
    });
  const json = async (method, p, body, headers) => {
    const r = await request(method, p, body, headers);
    return { status: r.status, body: r.body ? JSON.parse(r.body) : undefined };
  };
  const connectPhone = async (name) => {
    const phoneId = (await json('POST', '/phones/create', { phone_name: name })).body.phone_id;
    await waitFor(async () => (await json('GET', '/phones', null, { 'x-phone': phoneId })).body?.wa_state === 'QR', 30_000, 'QR');
    await json('POST', '/sandbox/phones/scan', { number: randomDigits() }, { 'x-phone': phoneId });
    await waitFor(
      async () => (await json('GET', '/phones', null, { 'x-phone': phoneId })).body?.wa_state === 'CONNECTED',
      30_000,
      'connected',
    );
    return phoneId;
  };
  const phoneId = await connectPhone('Faults');
  // the workflow's triggers on a phone of their own: the workflow is limited to it (org_phones)
  const workflowPhoneId = await connectPhone('Faults workflow');
  const workflowId = await timed.createDelayWorkflow(json, workflowPhoneId, CFG.workflowDelayS);
  if ((await json('POST', '/webhooks', { hookUrl: `${receiver.url}/hook`, integrationName: ['message.created'] })).status !== 201)
    throw new Error('webhook not created');
  if (
    (await json('POST', '/webhooks', { hookUrl: `${receiver.url}${timed.REMINDER_PATH}`, integrationName: ['task.reminder'] })).status !==
    201
  )
    throw new Error('reminder webhook not created');
  const readChat = randomDigits();
  await json('POST', '/sandbox/messages', { chat_id: readChat, body: 'history' }, { 'x-phone': phoneId });

  // the open-loop load: each request remembered with its kind, time and status
  const results = [];
  const inbound = [];
  const sends = [];
  const triggers = [];
  const reminders = [];
  let loading = true;
  let n = 0;
  // A failed answer's message, to tell apart after a return what kept a kind of request failing.
  const failure = (r) =>
    r.status === 200 ? {} : { error: String(r.body ?? '').match(/"message":"([^"]{0,160})/)?.[1] ?? String(r.status) };
  const fire = (kind) => {
    const i = n++;
    const at = Date.now();
    if (kind === 'in') {
      const body = `fin-${i}-${randomBytes(3).toString('hex')}`;
      request('POST', '/sandbox/messages', { chat_id: `92${String(i % 400).padStart(10, '0')}`, body }, { 'x-phone': phoneId }).then(
        (r) => {
          results.push({ kind, at, ms: Date.now() - at, status: r.status, ...failure(r) });
          inbound.push({ body, accepted: r.status === 200 });
        },
      );
    } else if (kind === 'send') {
      const body = `fout-${i}-${randomBytes(3).toString('hex')}`;
      request('POST', '/message/send', { chat_id: `93${String(i % 400).padStart(10, '0')}`, message: body }, { 'x-phone': phoneId }).then(
        (r) => {
          results.push({ kind, at, ms: Date.now() - at, status: r.status, ...failure(r) });
          sends.push({ body, accepted: r.status === 200 });
        },
      );
    } else if (kind === 'wf') {
      timed.fireTrigger(request, workflowPhoneId, i).then((r) => {
        results.push({ kind, at, ms: Date.now() - at, status: r.status, ...failure(r) });
        triggers.push({ chat: r.chat, body: r.body, accepted: r.status === 200 });
      });
    } else if (kind === 'task') {
      timed.fireReminder(request, i, CFG.reminderLeadMs).then((r) => {
        results.push({ kind, at, ms: Date.now() - at, status: r.status, ...failure(r) });
        reminders.push({ title: r.title, accepted: r.status === 200 });
      });
    } else
      request('GET', `/chats/${readChat}@c.us/messages?limit=20`, null, { 'x-phone': phoneId }).then((r) =>
        results.push({ kind, at, ms: Date.now() - at, status: r.status, ...failure(r) }),
      );
  };
  const loop = (async () => {
    const t0 = Date.now();
    const fired = { in: 0, send: 0, get: 0, wf: 0, task: 0 };
    const rates = { in: CFG.inRate, send: CFG.sendRate, get: CFG.getRate, wf: CFG.workflowRate, task: CFG.reminderRate };
    while (loading) {
      for (const kind of Object.keys(rates)) {
        const due = Math.floor(((Date.now() - t0) * rates[kind]) / 1000);
        while (fired[kind] < due) {
          fire(kind);
          fired[kind]++;
        }
      }
      await sleep(2);
    }
  })();

  const faults = {
    'pg-fast': { down: () => pg.stop('fast'), up: () => pg.start() },
    'pg-immediate': { down: () => pg.stop('immediate'), up: () => pg.start() },
    'nats-kill': { down: () => nats.kill(), up: () => nats.start() },
    'nats-empty': { down: () => nats.stop(), up: () => nats.start({ empty: true }) },
    'redis-restart': { down: () => redis.stop(), up: () => redis.start() },
    'redis-empty': { down: () => redis.kill(), up: () => redis.start({ empty: true }) },
  };
  await sleep(5_000);
  const done = [];
  for (const name of CFG.faults) {
    for (let k = 1; k <= CFG.repeat; k++) {
      const t0 = Date.now();
      await faults[name].down();
      await sleep(CFG.downMs);
      await faults[name].up();
      const backAt = Date.now();
      await sleep(5_000);
      done.push({
        fault: name,
        k,
        down_at: new Date(t0).toISOString(),
        back_at: new Date(backAt).toISOString(),
        down_ms: backAt - t0,
        backAt,
      });
      log(`  ${name} #${k}: down ${new Date(t0).toISOString()} for ${backAt - t0} ms (load ${load()})`);
    }
  }
  loading = false;
  await loop;
  await waitFor(() => results.length >= n, 120_000, 'every request answered');
  // Recovery once every answer is in: on a loaded machine the first answers after a return can take
  // longer than the pause between faults, and counting only those in by then read as no recovery.
  const firstOk = (kind, backAt) =>
    results.filter((r) => r.kind === kind && r.status === 200 && r.at >= backAt).reduce((m, r) => Math.min(m, r.at - backAt), Infinity);
  for (const entry of done) {
    entry.recovery_ms = Object.fromEntries(['in', 'send', 'get', 'wf', 'task'].map((kind) => [kind, firstOk(kind, entry.backAt)]));
    const r = entry.recovery_ms;
    // What the requests fired after the return and before the first 2xx were answered with.
    const stillFailing = {};
    for (const x of results)
      if (x.at >= entry.backAt && x.error && x.at - entry.backAt < Math.max(...Object.values(r).filter(Number.isFinite), 0)) {
        // how many, and how long they took to be answered: a slow failure waited in a queue somewhere
        const k = `${x.kind}: ${x.error}`;
        const f = (stillFailing[k] ??= { n: 0, ms_max: 0, ms_sum: 0 });
        f.n++;
        f.ms_max = Math.max(f.ms_max, x.ms);
        f.ms_sum += x.ms;
      }
    for (const f of Object.values(stillFailing)) {
      f.ms_mean = Math.round(f.ms_sum / f.n);
      delete f.ms_sum;
    }
    if (Object.keys(stillFailing).length) entry.failing_after_return = stillFailing;
    log(
      `  ${entry.fault} #${entry.k}: first 2xx after its return: in ${r.in} ms, send ${r.send} ms, GET ${r.get} ms, workflow trigger ${r.wf} ms, task ${r.task} ms`,
    );
    if (entry.failing_after_return) log(`    failing after the return: ${JSON.stringify(entry.failing_after_return)}`);
    delete entry.backAt;
  }

  // Stored once, and at the webhook.
  const count = async (prefix) => {
    const rows = await prisma.$queryRawUnsafe(
      `SELECT body, count(*)::int AS n FROM messages WHERE org_id = $1 AND body LIKE $2 GROUP BY body`,
      org.id,
      `${prefix}%`,
    );
    return new Map(rows.map((r) => [r.body, r.n]));
  };
  const acceptedIn = inbound.filter((m) => m.accepted);
  const acceptedOut = sends.filter((m) => m.accepted);
  await waitFor(
    // every accepted one by its body: a count would also be met by sends answered 504 yet sent
    async () => {
      const [ins, outs] = [await count('fin-'), await count('fout-')];
      return acceptedIn.every((m) => ins.has(m.body)) && acceptedOut.every((m) => outs.has(m.body));
    },
    CFG.settleMs,
    'every accepted message stored',
  ).catch((e) => log(`  ${e.message}`));
  const hooked = () => new Set(receiver.requests.filter((r) => r.path === '/hook').map((r) => JSON.parse(r.body).data?.body));
  await waitFor(
    async () => {
      const h = hooked();
      return acceptedIn.every((m) => h.has(m.body));
    },
    CFG.settleMs,
    'every accepted inbound message at the webhook',
  ).catch((e) => log(`  ${e.message}`));
  // The timed work: the last triggers' delays and the last reminders' leads run past the load's end.
  const acceptedTriggers = triggers.filter((t) => t.accepted);
  const acceptedReminders = reminders.filter((t) => t.accepted);
  const timedCtx = { prisma, receiver, orgId: org.id, workflowId, workflowPhoneId };
  await waitFor(
    async () => timed.settled(await timed.observe(timedCtx), acceptedTriggers, acceptedReminders),
    CFG.settleMs,
    'every workflow reply and reminder',
  ).catch((e) => log(`  ${e.message}`));
  await sleep(2_000);
  const [ins, outs, hooks] = [await count('fin-'), await count('fout-'), hooked()];
  const timedCounts = timed.countTimed(await timed.observe(timedCtx), acceptedTriggers, acceptedReminders, await count('fwf-'));
  const statuses = {};
  for (const r of results) statuses[`${r.kind} ${r.status}`] = (statuses[`${r.kind} ${r.status}`] ?? 0) + 1;
  const recovery = (kind) => done.map((d) => d.recovery_ms[kind]).filter(Number.isFinite);
  const summary = {
    requests: results.length,
    statuses,
    answers_500: results.filter((r) => r.status === 500).length,
    inbound_accepted: acceptedIn.length,
    inbound_lost: acceptedIn.filter((m) => !ins.has(m.body)).length,
    inbound_doubled: [...ins.values()].filter((c) => c > 1).length,
    sends_accepted: acceptedOut.length,
    sends_lost: acceptedOut.filter((m) => !outs.has(m.body)).length,
    sends_doubled: [...outs.values()].filter((c) => c > 1).length,
    webhook_missing: acceptedIn.filter((m) => !hooks.has(m.body)).length,
    ...timedCounts,
    recovery_p99_ms: Object.fromEntries(['in', 'send', 'get', 'wf', 'task'].map((kind) => [kind, pct(recovery(kind), 99)])),
  };
  log(`\n${JSON.stringify(summary, null, 2)}`);
  // The apps' own words (warnings and errors), for a run that lost something.
  const logDir = path.join(ROOT, 'bench/results', `faults-logs-${Date.now()}`);
  fs.mkdirSync(logDir, { recursive: true });
  for (const proc of running) fs.writeFileSync(path.join(logDir, `${proc.name}.log`), proc.lines.join('\n'));
  const out = path.join(ROOT, 'bench/results', `faults-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify({ cfg: CFG, load_end: os.loadavg(), summary, faults: done }, null, 2));
  log(`results: ${out}; load ${load()}`);
}

run(main);
