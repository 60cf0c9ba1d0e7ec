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
 *    shows: in the page, the animation frame after the first row entered the document (ms from
 *    navigation start), and Playwright's wall time from goto; with the paint timings (first contentful
 *    paint), the rows in the document and the calls started before the first row;
 *  - scrolling: the list scrolled by one viewport per animation frame over 5,000 loaded rows (the
 *    frames' intervals: p50, p99, max, frames over 50 ms), then to the very end (every page by cursor);
 *  - a live message to the oldest chat until it shows on top (the first page read again and joined).
 * Usage: bash scripts/build.sh && node bench/inbox/chat-list.js   (BENCH_CHATS=50000, BENCH_ROUNDS=3, BENCH_TO_END=1)
 */
const path = require('node:path');
const { guardBench } = require('../lib/cleanup');
const { loadAvg, pct, waitFor } = require('../lib/waiting');
const { BASE, startStack, orgWithPhone, seedChats, addAdmin, launchBrowser, signedIn, timed } = require('./console-world');

process.chdir(path.join(__dirname, '..', '..'));
const CHATS = Number(process.env.BENCH_CHATS || 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const TO_END = process.env.BENCH_TO_END !== '0';
const { cleanups, run } = guardBench(1_200_000);

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

async function firstRender(browser, consoleUrl) {
  const { context, page } = await signedIn(browser, consoleUrl);
  // cold: the session's cookie kept, the cache not (a new context per round); timed from navigation start
  const fresh = await (
    await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: await context.storageState() })
  ).newPage();
  await context.close();
  // in the page: the first row's frame (ms from navigation start), beside Playwright's wall time
  await fresh.addInitScript(() => {
    const seen = new MutationObserver(() => {
      if (!document.querySelector('a[data-chat-id]')) return;
      seen.disconnect();
      window.__firstRow = performance.now();
      requestAnimationFrame(() => (window.__firstRowFrame = performance.now()));
    });
    seen.observe(document, { childList: true, subtree: true });
  });
  const t0 = Date.now();
  await fresh.goto(`${consoleUrl}/console/chats`);
  await fresh.locator('a[data-chat-id]').first().waitFor({ timeout: 15_000 });
  const wall = Date.now() - t0;
  await fresh.waitForFunction(() => window.__firstRowFrame !== undefined);
  const paint = await fresh.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const at = window.__firstRow;
    // where the time went: each API call's start and end (ms from navigation), and the scripts'
    const calls = performance
      .getEntriesByType('resource')
      .filter((e) => /\/v1\/|\.js$/.test(e.name) && e.startTime < at)
      .map(
        (e) =>
          `${new URL(e.name).pathname.replace('/console/v1', '').slice(0, 40)} ${Math.round(e.startTime)}-${Math.round(e.responseEnd)}`,
      );
    return {
      first_row: Math.round(window.__firstRowFrame),
      fcp: fcp ? Math.round(fcp.startTime) : null,
      rows: document.querySelectorAll('ul.chat-list > li').length,
      calls,
    };
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
  const s = await startStack(cleanups, 'mapi_bench_inbox_list');
  const world = await orgWithPhone(s);
  const { api, phoneId } = world;
  const seedMs = await seedChats(s, world, CHATS);
  await addAdmin(s, api);
  const pages = await apiPages(api);
  const browser = await launchBrowser(cleanups);
  const renders = [];
  let page = null;
  for (let r = 0; r < ROUNDS; r++) {
    const one = await firstRender(browser, s.consoleUrl);
    renders.push({ first_row: one.first_row, wall: one.wall, fcp: one.fcp, rows: one.rows, calls: one.calls });
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
    first_row_ms: {
      p50: pct(
        renders.map((r) => r.first_row),
        50,
      ),
      max: Math.max(...renders.map((r) => r.first_row)),
    },
    first_render_ms: renders,
    scroll_5000_rows: scroll,
    to_the_end_ms: end,
    live_to_top_ms: live,
  };
  console.log(JSON.stringify(result, null, 2));
}

run(main);
