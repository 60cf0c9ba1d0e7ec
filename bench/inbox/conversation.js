#!/usr/bin/env node
'use strict';
/**
 * The console's conversation pane (issue 33's aims: switching chats < 200 ms to the newest messages; a
 * message arriving on the network shows in an open chat < 500 ms p99, sandbox). The world of
 * chat-list.js (console-world.js): the stack and the console on loopback, Chromium at 1280×800 signed
 * in as an admin, BENCH_CHATS chats seeded in SQL on one sandbox phone, the newest BENCH_HISTORY_CHATS
 * of them with BENCH_HISTORY messages each. Measured in the page (performance.now, at the animation
 * frame the thing is first in sight):
 *  - switching: a click on a chat's row (scrolled into the list's window first, untimed) until the
 *    chat's newest message is in the conversation pane's view. Cold: each history chat once, the first
 *    time it is opened in this page; warm: BENCH_WARM clicks on history chats opened before (never the
 *    open one). BENCH_PAUSE_MS between switches (the last chat's side reads settle). With each, the
 *    wait before GET /chats/{chat_id}/messages started and its duration (resource timing). Baseline:
 *    the same read from Node, alone, BENCH_WARM times: through the console with the page's cookie, and
 *    to the gateway with the token;
 *  - live: with a history chat open, BENCH_LIVE customer messages through the sandbox network
 *    (POST /v1/sandbox/messages, one every BENCH_LIVE_EVERY_MS, not waiting for the last), from just
 *    before the POST until the text is in the open conversation's view (Date.now on both sides, one
 *    clock). Baseline: a socket.io client of the organization (the token) in Node, from before the POST
 *    until its message.created comes.
 * Usage: bash scripts/build.sh && node bench/inbox/conversation.js
 *   (BENCH_CHATS=50000, BENCH_HISTORY_CHATS=50, BENCH_HISTORY=30, BENCH_WARM=100, BENCH_PAUSE_MS=300,
 *    BENCH_LIVE=150, BENCH_LIVE_EVERY_MS=300)
 */
const path = require('node:path');
const { io } = require('socket.io-client');
const { guardBench } = require('../lib/cleanup');
const { loadAvg, pct, sleep, waitFor } = require('../lib/waiting');
const { BASE, chatOf, startStack, orgWithPhone, seedChats, addAdmin, launchBrowser, signedIn, timed } = require('./console-world');

process.chdir(path.join(__dirname, '..', '..'));
const num = (name, fallback) => Number(process.env[name] || fallback);
const CHATS = num('BENCH_CHATS', 50_000);
const HISTORY_CHATS = num('BENCH_HISTORY_CHATS', 50);
const HISTORY = num('BENCH_HISTORY', 30);
const WARM = num('BENCH_WARM', 100);
const PAUSE_MS = num('BENCH_PAUSE_MS', 300);
const LIVE = num('BENCH_LIVE', 150);
const LIVE_EVERY_MS = num('BENCH_LIVE_EVERY_MS', 300);
const { cleanups, run } = guardBench(900_000);

const stats = (xs) => {
  const r = (x) => +x.toFixed(1);
  return { n: xs.length, p50: r(pct(xs, 50)), p95: r(pct(xs, 95)), p99: r(pct(xs, 99)), max: r(Math.max(...xs)) };
};

/** Clicks chat i's row; ms until its newest message ('Question i') is in the pane's view, and the messages read's timing. */
async function switchTo(page, i) {
  return page.evaluate(
    async ({ chat, at, newest }) => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const list = document.querySelector('.chat-scroll');
      const row = () => document.querySelector(`ul.chat-list a[data-chat-id="${chat}"]`);
      if (!row()) {
        list.scrollTop = Math.max(0, at * 76 - 152);
        for (let k = 0; k < 60 && !row(); k++) await frame();
      }
      if (!row()) throw new Error(`no row for ${chat}`);
      performance.clearResourceTimings();
      await frame();
      const t0 = performance.now();
      window.__switchAt = t0;
      row().click();
      for (;;) {
        await frame();
        const el = document.querySelector(`ol.messages [data-message-id="${newest}"]`);
        if (el) {
          const pane = el.closest('ol.messages').getBoundingClientRect();
          const box = el.getBoundingClientRect();
          if (box.top < pane.bottom && box.bottom > pane.top) break;
        }
        if (performance.now() - t0 > 15_000) throw new Error(`${chat}: the newest message not in sight after 15 s`);
      }
      const ms = performance.now() - t0;
      const read = performance.getEntriesByType('resource').find((e) => e.name.includes('/messages?offset=0'));
      return { ms, queued: read ? read.startTime - t0 : null, read: read ? read.responseEnd - read.startTime : null };
    },
    { chat: chatOf(i), at: i, newest: `false_${chatOf(i)}_SEED${i}` },
  );
}

async function switching(page) {
  const cold = [];
  const warm = [];
  let open = -1;
  const one = async (i, into) => {
    into.push(await switchTo(page, i));
    open = i;
    await sleep(PAUSE_MS);
  };
  for (let i = 0; i < HISTORY_CHATS; i++) await one(i, cold);
  for (let n = 0; n < WARM; n++) {
    let i = Math.floor(Math.random() * HISTORY_CHATS);
    if (i === open) i = (i + 1) % HISTORY_CHATS;
    await one(i, warm);
  }
  const summary = (xs) => ({
    ...stats(xs.map((x) => x.ms)),
    over_200: xs.filter((x) => x.ms > 200).length,
    messages_read_queued_p50: +pct(
      xs.filter((x) => x.queued !== null).map((x) => x.queued),
      50,
    ).toFixed(1),
    messages_read_p50: +pct(
      xs.filter((x) => x.read !== null).map((x) => x.read),
      50,
    ).toFixed(1),
  });
  // the last switch's API calls (path, start-end ms from the click), once settled
  const calls = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/v1/'))
      .map(
        (e) =>
          `${e.name.replace(/^.*\/v1/, '').slice(0, 60)} ${Math.round(e.startTime - window.__switchAt)}-${Math.round(e.responseEnd - window.__switchAt)}`,
      ),
  );
  const last = warm[warm.length - 1] ?? cold[cold.length - 1];
  return { cold: summary(cold), warm: summary(warm), last_switch: { ms: Math.round(last.ms), calls } };
}

/**
 * Baseline: the pane's read (GET /chats/{chat_id}/messages?offset=0&limit=50) from Node, one at a time:
 * through the console with the page's session cookie (the browser's path), and to the gateway with the token.
 */
async function apiReads(page, consoleUrl, api, world) {
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const viaConsole = [];
  const viaToken = [];
  for (let n = 0; n < WARM; n++) {
    const p = `/chats/${encodeURIComponent(chatOf(n % HISTORY_CHATS))}/messages?offset=0&limit=50`;
    const proxied = await timed(() =>
      fetch(`${consoleUrl}/v1${p}`, { headers: { cookie, 'x-phone': world.number } }).then((r) => r.json()),
    );
    const token = await timed(() => api('GET', p, undefined, { 'x-phone': world.phoneId }));
    if (token.out.status !== 200 || !Array.isArray(proxied.out.messages)) throw new Error(`messages read: ${JSON.stringify(proxied.out)}`);
    viaConsole.push(proxied.ms);
    viaToken.push(token.ms);
  }
  return { console_cookie: stats(viaConsole), gateway_token: stats(viaToken) };
}

/** With chat `i` open: LIVE paced customer messages; ms from before each POST until its text is in the pane's view. */
async function live(page, s, api, phoneId, i) {
  const socketSeen = new Map();
  const socket = io(s.baseUrl, { transports: ['websocket'], reconnection: false, extraHeaders: { authorization: `Bearer ${s.token}` } });
  cleanups.push(async () => void socket.disconnect());
  socket.on('message.created', (m) => m.body?.startsWith('Live ') && !socketSeen.has(m.body) && socketSeen.set(m.body, Date.now()));
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  await switchTo(page, i);
  await sleep(1000);
  await page.evaluate(() => {
    const pane = document.querySelector('ol.messages');
    window.__seen = {};
    const look = (node) => {
      if (!(node instanceof Element)) return;
      for (const b of [node, ...node.querySelectorAll('.body')]) {
        const text = b.classList.contains('body') ? b.textContent : null;
        if (!text || !text.startsWith('Live ') || text in window.__seen) continue;
        window.__seen[text] = null;
        requestAnimationFrame(() => {
          const box = b.getBoundingClientRect();
          const view = pane.getBoundingClientRect();
          window.__seen[text] = { at: Date.now(), inView: box.top < view.bottom && box.bottom > view.top };
        });
      }
    };
    new MutationObserver((changes) => changes.forEach((c) => c.addedNodes.forEach(look))).observe(pane, { childList: true, subtree: true });
  });
  const sent = [];
  const posts = [];
  const t0 = Date.now();
  for (let n = 0; n < LIVE; n++) {
    const text = `Live ${n} ${Math.random().toString(36).slice(2, 8)}`;
    sent.push({ text, at: Date.now() });
    posts.push(timed(() => api('POST', '/sandbox/messages', { chat_id: String(BASE + i), body: text }, { 'x-phone': phoneId })));
    const wait = t0 + (n + 1) * LIVE_EVERY_MS - Date.now();
    if (wait > 0) await sleep(wait);
  }
  const answers = await Promise.all(posts);
  const failed = answers.filter((a) => a.out.status !== 200);
  if (failed.length) throw new Error(`${failed.length} sandbox posts failed: ${JSON.stringify(failed[0].out)}`);
  await waitFor(
    async () => page.evaluate((n) => Object.values(window.__seen).filter(Boolean).length >= n, LIVE),
    30_000,
    'every live message shown',
    200,
  );
  const seen = await page.evaluate(() => window.__seen);
  await waitFor(async () => socketSeen.size >= LIVE, 10_000, 'every live message on the socket', 100);
  const ms = sent.map((x) => seen[x.text].at - x.at);
  socket.disconnect();
  return {
    ...stats(ms),
    baseline_socket: stats(sent.map((x) => socketSeen.get(x.text) - x.at)),
    over_500: ms.filter((x) => x > 500).length,
    not_in_view: sent.filter((x) => !seen[x.text].inView).length,
    post_p50: +pct(
      answers.map((a) => a.ms),
      50,
    ).toFixed(1),
  };
}

async function main() {
  const s = await startStack(cleanups, 'mapi_bench_inbox_conv');
  const world = await orgWithPhone(s);
  const seedMs = await seedChats(s, world, CHATS, { chats: HISTORY_CHATS, messages: HISTORY });
  await addAdmin(s, world.api);
  const browser = await launchBrowser(cleanups);
  const { page } = await signedIn(browser, s.consoleUrl);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${s.consoleUrl}/console/chats`);
  await page.locator(`a[data-chat-id="${chatOf(0)}"]`).waitFor({ timeout: 15_000 });
  const switches = await switching(page);
  const baselineRead = await apiReads(page, s.consoleUrl, world.api, world);
  const arrivals = await live(page, { ...s, token: world.token }, world.api, world.phoneId, HISTORY_CHATS > 1 ? 1 : 0);
  const result = {
    date: new Date().toISOString(),
    chats: CHATS,
    history: `${HISTORY_CHATS} chats × ${HISTORY} messages`,
    load_average: loadAvg(),
    cpus: require('node:os').cpus().length,
    seed_ms: seedMs,
    switch_ms: switches,
    baseline_messages_read_ms: baselineRead,
    pause_ms: PAUSE_MS,
    live_ms: arrivals,
    live_every_ms: LIVE_EVERY_MS,
    page_errors: errors,
  };
  console.log(JSON.stringify(result, null, 2));
}

run(main);
