#!/usr/bin/env node
'use strict';
/**
 * The console's inbox with 50,000 chats (issue 33's aims: first render < 1 s cold; the list scrolls
 * smoothly): the stack (chats, phones with the sandbox network, members, inbox, the gateway) and the
 * console server on loopback, Debian's Chromium (scripts/ensure-chromium.sh) signed in as an admin.
 * The chats are seeded in SQL on one sandbox phone (a customer message each, a minute apart; every
 * 10th unread, every 50th with an open ticket). Measured, ROUNDS times each:
 *  - GET /v1/chats?limit=100 through the gateway (the list's page): the first page and a page 40,000
 *    chats deep by cursor, and the unread / open-ticket filters' first pages;
 *  - cold first render: a new browser context (no cache) opening /console/chats until the first row
 *    shows, with the paint timings (first contentful paint) and the rows in the document;
 *  - scrolling: the list scrolled by one viewport per animation frame over 5,000 loaded rows (the
 *    frames' intervals: p50, p99, max, frames over 50 ms), then to the very end (every page by cursor);
 *  - a live message to the oldest chat until it shows on top (the first page read again and joined).
 * Usage: bash scripts/build.sh && node bench/inbox/chat-list.js   (BENCH_CHATS=50000, BENCH_ROUNDS=3, BENCH_TO_END=1)
 */
const path = require('node:path');
const { chromium } = require('playwright-core');
const { createTestDatabase, AppProcess, freePort, testEnv, randomSuffix, createOrg, createToken, randomDigits } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { guardBench } = require('../lib/cleanup');
const { loadAvg, pct, waitFor } = require('../lib/waiting');

process.chdir(path.join(__dirname, '..', '..'));
const CHATS = Number(process.env.BENCH_CHATS || 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const TO_END = process.env.BENCH_TO_END !== '0';
const BASE = 447_100_000_000;
const { cleanups, run } = guardBench(1_200_000);

async function startStack() {
  const db = await createTestDatabase('mapi_bench_inbox_list');
  cleanups.push(() => db.drop());
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: `${testEnv.namespace()}-${randomSuffix(3)}`,
    NODE_ENV: 'test',
    AUTH_CACHE_TTL_MS: '0',
    DATABASE_POOL_SIZE: '5',
    SESSION_SCAN_MS: '200',
  };
  const start = async (app, more = {}, readyPath = null) => {
    const health = await freePort();
    const proc = AppProcess.start(app, { ...env, HEALTH_PORT: String(health), HEALTH_HOST: '127.0.0.1', ...more });
    cleanups.push(() => proc.stop());
    await proc.waitReady(readyPath ?? `http://127.0.0.1:${health}/health/ready`);
    return proc;
  };
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  await Promise.all([
    ...['chats', 'phones', 'members', 'inbox'].map((app) => start(app)),
    start('api-gateway', { PORT: String(port), HOST: '127.0.0.1' }, `${baseUrl}/health/ready`),
  ]);
  const consolePort = await freePort();
  await start('console', { PORT: String(consolePort), HOST: '127.0.0.1', CONSOLE_GATEWAY_URL: baseUrl });
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  cleanups.push(() => prisma.$disconnect());
  return { baseUrl, consoleUrl: `http://127.0.0.1:${consolePort}`, prisma };
}

const call = async (baseUrl, method, p, { token, body, headers = {} } = {}) => {
  const res = await fetch(`${baseUrl}/v1${p}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
};

async function seed(s) {
  const org = await createOrg(s.prisma);
  const { token } = await createToken(s.prisma, org.id);
  const api = (method, p, body, headers) => call(s.baseUrl, method, p, { token, body, headers });
  const created = await api('POST', '/phones/create', { phone_name: 'Bench' });
  const phoneId = created.body.phone_id;
  await waitFor(async () => (await api('GET', '/phones', undefined, { 'x-phone': phoneId })).body?.wa_state === 'QR', 15_000, 'QR');
  const number = randomDigits();
  await api('POST', '/sandbox/phones/scan', { number }, { 'x-phone': phoneId });
  await waitFor(
    async () => (await api('GET', '/phones', undefined, { 'x-phone': phoneId })).body?.wa_state === 'CONNECTED',
    15_000,
    'connected',
  );
  const t0 = Date.now();
  await s.prisma.$executeRawUnsafe(
    `WITH m AS (
       INSERT INTO messages (org_id, phone_id, chat_id, message_id, unique_id, org_phone, sender_phone, from_me, body, message_type, timestamp, fts)
       SELECT $1::uuid, $2, c, 'false_' || c || '_SEED' || i, 'SEED' || i, $3, c, false, 'Question ' || i, 'chat',
              to_timestamp(($4::bigint - i::bigint * 60000) / 1000.0), 'question ' || i
       FROM generate_series(0, $5::int - 1) i, LATERAL (SELECT ($6::bigint + i)::text || '@c.us' AS c) x
       RETURNING id, chat_id, timestamp, substr(unique_id, 5)::int AS i)
     INSERT INTO chats (org_id, phone_id, chat_id, chat_name, chat_type, org_phone, unread_count, created_at, updated_at, activity_at, latest_message_id, latest_message_at)
     SELECT $1::uuid, $2, m.chat_id, 'Customer ' || lpad(m.i::text, 6, '0'), 'user', $3, CASE WHEN m.i % 10 = 0 THEN 1 ELSE 0 END,
            m.timestamp, m.timestamp, m.timestamp, m.id, m.timestamp
     FROM m`,
    org.id,
    phoneId,
    `${number}@c.us`,
    Date.now() - 60_000,
    CHATS,
    BASE,
  );
  await s.prisma.$executeRawUnsafe(
    `INSERT INTO inbox_tickets (ticket_id, org_id, phone_id, chat_id, subject, status, created_at, last_updated_at)
     SELECT gen_random_uuid(), $1::uuid, $2, ($3::bigint + i)::text || '@c.us', 'Ticket ' || i, 'open', now(), now()
     FROM generate_series(0, $4::int - 1, 50) i`,
    org.id,
    phoneId,
    BASE,
    CHATS,
  );
  for (const table of ['chats', 'messages', 'inbox_tickets']) await s.prisma.$executeRawUnsafe(`VACUUM ANALYZE ${table}`);
  const seedMs = Date.now() - t0;
  const invited = await api('POST', '/members/invite', { emails: ['bench@example.com'], role: 'admin' });
  const inviteToken = invited.body.invitations[0].invite_url.split('#token=')[1];
  await call(s.baseUrl, 'POST', '/auth/accept-invite', { body: { token: inviteToken, password: 'correct horse battery' } });
  return { api, phoneId, seedMs };
}

const timed = async (fn) => {
  const t0 = performance.now();
  const out = await fn();
  return { ms: performance.now() - t0, out };
};

async function apiPages(api) {
  const out = { first: [], deep: [], unread: [], open_ticket: [] };
  // the cursor 40,000 chats down, walked once (pages of 2000)
  let cursor = null;
  for (let n = 0; n < Math.min(40_000, CHATS - 100); n += 2000) {
    const page = await api('GET', `/chats?limit=2000${cursor ? `&cursor=${cursor}` : ''}`);
    cursor = page.body.next_cursor;
  }
  for (let r = 0; r < ROUNDS * 3; r++) {
    out.first.push((await timed(() => api('GET', '/chats?limit=100'))).ms);
    out.deep.push((await timed(() => api('GET', `/chats?limit=100&cursor=${cursor}`))).ms);
    out.unread.push((await timed(() => api('GET', '/chats?limit=100&unread=true'))).ms);
    out.open_ticket.push((await timed(() => api('GET', '/chats?limit=100&open_ticket=true'))).ms);
  }
  return Object.fromEntries(Object.entries(out).map(([k, xs]) => [k, { p50: +pct(xs, 50).toFixed(1), max: +Math.max(...xs).toFixed(1) }]));
}

async function signedIn(browser, consoleUrl) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${consoleUrl}/console/`);
  await page.getByLabel('Email').fill('bench@example.com');
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Phones' }).waitFor({ timeout: 15_000 });
  return { context, page };
}

async function firstRender(browser, consoleUrl) {
  const { context, page } = await signedIn(browser, consoleUrl);
  // cold: the session's cookie kept, the cache not (a new context per round); timed from navigation start
  const fresh = await (
    await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: await context.storageState() })
  ).newPage();
  await context.close();
  const t0 = Date.now();
  await fresh.goto(`${consoleUrl}/console/chats`);
  await fresh.locator('a[data-chat-id]').first().waitFor({ timeout: 15_000 });
  const wall = Date.now() - t0;
  const paint = await fresh.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    // where the time went: each API call's start and end (ms from navigation), and the scripts'
    const calls = performance
      .getEntriesByType('resource')
      .filter((e) => /\/v1\/|\.js$/.test(e.name))
      .map(
        (e) =>
          `${new URL(e.name).pathname.replace('/console/v1', '').slice(0, 40)} ${Math.round(e.startTime)}-${Math.round(e.responseEnd)}`,
      );
    return { fcp: fcp ? Math.round(fcp.startTime) : null, rows: document.querySelectorAll('ul.chat-list > li').length, calls };
  });
  return { page: fresh, wall, ...paint };
}

/** One viewport per frame over `rows` loaded rows: the frames' intervals (and how long loading them took). */
async function scrollFrames(page, rows) {
  // the pages are read as the list nears its loaded end: scrolled to the end until `rows` are loaded
  const t0 = Date.now();
  await waitFor(
    async () =>
      page.evaluate((n) => {
        const el = document.querySelector('.chat-scroll');
        el.scrollTop = el.scrollHeight;
        return el.scrollHeight / 76 >= n;
      }, rows),
    300_000,
    `${rows} rows loaded`,
    20,
  );
  const loadMs = Date.now() - t0;
  const frames = await page.evaluate(async (target) => {
    const el = document.querySelector('.chat-scroll');
    el.scrollTop = 0;
    await new Promise((r) => requestAnimationFrame(r));
    const gaps = [];
    let last = performance.now();
    while (el.scrollTop + el.clientHeight < target * 76 - 10) {
      el.scrollTop += el.clientHeight;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      gaps.push(now - last);
      last = now;
    }
    const s = [...gaps].sort((a, b) => a - b);
    const at = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
    return {
      frames: gaps.length,
      p50: +at(0.5).toFixed(1),
      p99: +at(0.99).toFixed(1),
      max: +s[s.length - 1].toFixed(1),
      over50: gaps.filter((g) => g > 50).length,
      rows_in_document: document.querySelectorAll('ul.chat-list > li').length,
    };
  }, rows);
  return { load_ms: loadMs, ...frames };
}

/** Scrolls to the very end (every page by cursor): the time until the last chat is a row. */
async function toTheEnd(page) {
  const t0 = Date.now();
  await waitFor(
    async () =>
      page.evaluate((n) => {
        const el = document.querySelector('.chat-scroll');
        el.scrollTop = el.scrollHeight;
        const lis = document.querySelectorAll('ul.chat-list > li');
        const last = lis[lis.length - 1];
        return !!last && last.getAttribute('aria-setsize') === String(n) && last.getAttribute('aria-posinset') === String(n);
      }, CHATS),
    600_000,
    'the last chat',
    20,
  );
  return Date.now() - t0;
}

async function main() {
  const s = await startStack();
  const { api, phoneId, seedMs } = await seed(s);
  const pages = await apiPages(api);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  cleanups.push(() => browser.close());
  const renders = [];
  let page = null;
  for (let r = 0; r < ROUNDS; r++) {
    const one = await firstRender(browser, s.consoleUrl);
    renders.push({ wall: one.wall, fcp: one.fcp, rows: one.rows, calls: one.calls });
    if (page) await page.context().close();
    page = one.page;
  }
  const scroll = await scrollFrames(page, 5000);
  const end = TO_END ? await toTheEnd(page) : null;
  // live: the oldest chat gets a message; until it is the top row
  await page.evaluate(() => (document.querySelector('.chat-scroll').scrollTop = 0));
  const t0 = Date.now();
  await api('POST', '/sandbox/messages', { chat_id: String(BASE + CHATS - 1), body: 'Bench live' }, { 'x-phone': phoneId });
  const oldest = `${BASE + CHATS - 1}@c.us`;
  await waitFor(
    async () => (await page.locator('ul.chat-list > li a').first().getAttribute('data-chat-id')) === oldest,
    15_000,
    'the live chat on top',
    10,
  );
  const live = Date.now() - t0;
  const result = {
    date: new Date().toISOString(),
    chats: CHATS,
    load_average: loadAvg(),
    cpus: require('node:os').cpus().length,
    seed_ms: seedMs,
    api_ms: pages,
    first_render_ms: renders,
    scroll_5000_rows: scroll,
    to_the_end_ms: end,
    live_to_top_ms: live,
  };
  console.log(JSON.stringify(result, null, 2));
}

run(main);
