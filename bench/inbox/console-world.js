'use strict';
/**
 * What the console inbox benches share (chat-list.js, conversation.js): the stack (chats, phones with
 * the sandbox network, members, inbox, the gateway) and the console server on loopback, a connected
 * sandbox phone, chats seeded in SQL, an admin member to sign in as, and Debian's Chromium
 * (scripts/ensure-chromium.sh) signed in at 1280×800.
 */
const { chromium } = require('playwright-core');
const { createTestDatabase, AppProcess, freePort, testEnv, randomSuffix, createOrg, createToken, randomDigits } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { waitFor } = require('../lib/waiting');

/** The first seeded chat's number: chat i is `${BASE + i}@c.us`, a minute older than chat i - 1. */
const BASE = 447_100_000_000;
const chatOf = (i) => `${BASE + i}@c.us`;
const EMAIL = 'bench@example.com';
const PASSWORD = 'correct horse battery';

async function startStack(cleanups, dbName) {
  const db = await createTestDatabase(dbName);
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

/** An organization, its token (and `api`, calls with it), and a sandbox phone scanned and connected. */
async function orgWithPhone(s) {
  const org = await createOrg(s.prisma);
  const { token } = await createToken(s.prisma, org.id);
  const api = (method, p, body, headers) => call(s.baseUrl, method, p, { token, body, headers });
  const created = await api('POST', '/phones/create', { phone_name: 'Bench' });
  const phoneId = created.body.phone_id;
  const state = async () => (await api('GET', '/phones', undefined, { 'x-phone': phoneId })).body?.wa_state;
  await waitFor(async () => (await state()) === 'QR', 15_000, 'QR');
  const number = randomDigits();
  await api('POST', '/sandbox/phones/scan', { number }, { 'x-phone': phoneId });
  await waitFor(async () => (await state()) === 'CONNECTED', 15_000, 'connected');
  return { org, token, api, phoneId, number };
}

/**
 * `chats` chats on the phone, a customer message each (chat i's at now - 1 min - i min; every 10th
 * unread), every 50th with an open ticket; with `history`, chats 0 … history.chats - 1 also get
 * history.messages - 1 older messages (a second apart, before the chat's last; every 3rd the agent's).
 */
async function seedChats(s, { org, phoneId, number }, chats, history = null) {
  const t0 = Date.now();
  const now = Date.now() - 60_000;
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
    now,
    chats,
    BASE,
  );
  if (history) {
    await s.prisma.$executeRawUnsafe(
      `INSERT INTO messages (org_id, phone_id, chat_id, message_id, unique_id, org_phone, sender_phone, from_me, body, message_type, timestamp, fts)
       SELECT $1::uuid, $2, c, (k % 3 = 0)::text || '_' || c || '_' || u, u, $3,
              CASE WHEN k % 3 = 0 THEN $3 ELSE c END, k % 3 = 0, 'Earlier message ' || k || ' of chat ' || i, 'chat',
              to_timestamp(($4::bigint - i::bigint * 60000 - k * 1000) / 1000.0), 'earlier message ' || k
       FROM generate_series(0, $5::int - 1) i, generate_series(1, $6::int - 1) k,
            LATERAL (SELECT ($7::bigint + i)::text || '@c.us' AS c, 'HIST' || i || '_' || k AS u) x`,
      org.id,
      phoneId,
      `${number}@c.us`,
      now,
      history.chats,
      history.messages,
      BASE,
    );
  }
  await s.prisma.$executeRawUnsafe(
    `INSERT INTO inbox_tickets (ticket_id, org_id, phone_id, chat_id, subject, status, created_at, last_updated_at)
     SELECT gen_random_uuid(), $1::uuid, $2, ($3::bigint + i)::text || '@c.us', 'Ticket ' || i, 'open', now(), now()
     FROM generate_series(0, $4::int - 1, 50) i`,
    org.id,
    phoneId,
    BASE,
    chats,
  );
  for (const table of ['chats', 'messages', 'inbox_tickets']) await s.prisma.$executeRawUnsafe(`VACUUM ANALYZE ${table}`);
  return Date.now() - t0;
}

/** An admin member (EMAIL, PASSWORD) invited and accepted. */
async function addAdmin(s, api) {
  const invited = await api('POST', '/members/invite', { emails: [EMAIL], role: 'admin' });
  const inviteToken = invited.body.invitations[0].invite_url.split('#token=')[1];
  await call(s.baseUrl, 'POST', '/auth/accept-invite', { body: { token: inviteToken, password: PASSWORD } });
}

async function launchBrowser(cleanups) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  cleanups.push(() => browser.close());
  return browser;
}

/** A new context at 1280×800 signed in as the admin (the Phones page shown). */
async function signedIn(browser, consoleUrl) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${consoleUrl}/console/`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Phones' }).waitFor({ timeout: 15_000 });
  return { context, page };
}

const timed = async (fn) => {
  const t0 = performance.now();
  const out = await fn();
  return { ms: performance.now() - t0, out };
};

module.exports = { BASE, chatOf, startStack, call, orgWithPhone, seedChats, addAdmin, launchBrowser, signedIn, timed };
