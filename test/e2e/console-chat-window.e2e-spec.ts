import type { Browser, Page, Route } from 'playwright-core';
import { checkPage } from './support/browser';
import { joinByInvitation } from './support/console-session';
import { client, until } from './support/http';
import { signedInPage, startInboxConsole } from './support/inbox-console';
import type { Stack } from './support/stack';

const CHATS = 3000;
const BASE = 447_000_000_000;
const chatOf = (i: number) => `${BASE + i}@c.us`;

/**
 * The inbox's windowed chat list (issue 33 item 1) with thousands of chats, over the real stack and
 * Chromium: the chats are seeded in SQL on the sandbox phone (one customer message each, chat i a
 * minute older than chat i-1; every 10th unread on the phone, every 50th with an open ticket). Only
 * the rows in sight are in the document; scrolling reads the next pages by cursor to the very last
 * chat; a customer writing to a chat far down the list moves it to the top live, once (the pages
 * below do not show it again); the unread and open-ticket filters are the API's and page the same
 * way; opening a chat reads it for this member (decision 0091), still read after a reload; a new
 * document reads the first page alone (the ticket markers and the read on the socket's connection after it).
 */
describe('console: the chat list with thousands of chats', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let consoleUrl: string;
  let api: ReturnType<typeof client>;
  let phone: { phoneId: string; number: string };
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const started = Date.now();
    const world = await startInboxConsole();
    ({ stack, browser, consoleUrl, api, phone } = world);
    const org = (await stack.prisma.phone.findFirstOrThrow({ where: { phone_id: phone.phoneId } })).org_id;
    const at = Date.now() - 60_000;
    await stack.prisma.$executeRawUnsafe(
      `WITH m AS (
         INSERT INTO messages (org_id, phone_id, chat_id, message_id, unique_id, org_phone, sender_phone, from_me, body, message_type, timestamp, fts)
         SELECT $1::uuid, $2, c, 'false_' || c || '_SEED' || i, 'SEED' || i, $3, c, false, 'Question ' || i, 'chat',
                to_timestamp(($4::bigint - i::bigint * 60000) / 1000.0), 'question ' || i
         FROM generate_series(0, $5::int - 1) i, LATERAL (SELECT ($6::bigint + i)::text || '@c.us' AS c) x
         RETURNING id, chat_id, timestamp, substr(unique_id, 5)::int AS i)
       INSERT INTO chats (org_id, phone_id, chat_id, chat_name, chat_type, org_phone, unread_count, created_at, updated_at, activity_at, latest_message_id, latest_message_at)
       SELECT $1::uuid, $2, m.chat_id, 'Customer ' || lpad(m.i::text, 5, '0'), 'user', $3, CASE WHEN m.i % 10 = 0 THEN 1 ELSE 0 END,
              m.timestamp, m.timestamp, m.timestamp, m.id, m.timestamp
       FROM m`,
      org,
      phone.phoneId,
      `${phone.number}@c.us`,
      at,
      CHATS,
      BASE,
    );
    await stack.prisma.$executeRawUnsafe(
      `INSERT INTO inbox_tickets (ticket_id, org_id, phone_id, chat_id, subject, status, created_at, last_updated_at)
       SELECT gen_random_uuid(), $1::uuid, $2, ($3::bigint + i)::text || '@c.us', 'Ticket ' || i, 'open', now(), now()
       FROM generate_series(0, $4::int - 1, 50) i`,
      org,
      phone.phoneId,
      BASE,
      CHATS,
    );
    await Promise.all([
      joinByInvitation(stack.baseUrl, api, { emails: ['agent@example.com'], role: 'admin' }, 'correct horse battery'),
      world.consoleReady,
    ]);
    page = await signedInPage({ browser, consoleUrl }, 'agent@example.com', 'correct horse battery', pageErrors);
    process.stdout.write(`console chat window: stack, ${CHATS} chats and sign-in ready in ${Date.now() - started} ms\n`);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 60_000);

  const rows = () => page.locator('ul.chat-list > li');
  /** The rows in the document: [chat id, position (1-based), list size (-1 while more pages remain)]. */
  const rendered = () =>
    rows().evaluateAll((lis) =>
      lis.map((li) => [
        li.querySelector('a')?.getAttribute('data-chat-id'),
        Number(li.getAttribute('aria-posinset')),
        Number(li.getAttribute('aria-setsize')),
      ]),
    ) as Promise<[string, number, number][]>;
  /** Scrolls the list to its end, page after page, until the last row is the list's last (its size known). */
  const scrollToEnd = async (expected: number, timeout = 60_000) => {
    const t0 = Date.now();
    for (;;) {
      await page.locator('.chat-scroll').evaluate((el) => (el.scrollTop = el.scrollHeight));
      const shown = await rendered();
      const last = shown[shown.length - 1];
      if (last && last[2] !== -1 && last[1] === last[2]) {
        expect(last[2]).toBe(expected);
        return { last, ms: Date.now() - t0 };
      }
      if (Date.now() - t0 > timeout) throw new Error(`the list's end not reached: ${JSON.stringify(last)}`);
      await page.waitForTimeout(50);
    }
  };
  const scrollToTop = () => page.locator('.chat-scroll').evaluate((el) => (el.scrollTop = 0));

  it('renders only the rows in sight; scrolling reads every page to the last chat; a live message moves its chat to the top once', async () => {
    await page.goto(`${consoleUrl}/console/chats`);
    await page.locator(`a[data-chat-id="${chatOf(0)}"]`).waitFor({ timeout: 15_000 });
    expect((await rendered())[0]).toEqual([chatOf(0), 1, -1]);
    expect(await rows().count()).toBeLessThan(40);
    expect([...(await checkPage(page, 'w01-chat-window')), ...pageErrors.splice(0)]).toEqual([]);

    // A customer far down the list (not loaded yet) writes: the chat comes to the top, unread, no reload.
    await page.evaluate('window.__sameDocument = true');
    const far = CHATS - 3;
    const sent = await api.post(
      '/sandbox/messages',
      { chat_id: String(BASE + far), body: 'Any news on my order?' },
      { 'x-phone': phone.phoneId },
    );
    expect(sent.status).toBe(200);
    const top = page.locator('ul.chat-list > li').first().locator('a');
    await until(
      () => top.getAttribute('data-chat-id'),
      (id) => id === chatOf(far),
      10_000,
      'the far chat on top',
    );
    expect(await top.locator('.preview').textContent()).toBe('Any news on my order?');
    expect(await top.locator('.unread').textContent()).toBe('1');

    // To the end: every page by cursor; the moved chat is not listed twice (the size is the chats', once each).
    const { last, ms } = await scrollToEnd(CHATS);
    expect(last[0]).toBe(chatOf(CHATS - 1));
    const tail = await rendered();
    expect(tail.map((r) => r[0])).not.toContain(chatOf(far));
    expect(tail.every((r, k) => k === 0 || r[1] === tail[k - 1][1] + 1)).toBe(true); // contiguous rows
    expect(await rows().count()).toBeLessThan(40);
    process.stdout.write(`console chat window: scrolled to chat ${CHATS} in ${ms} ms\n`);

    // A live message while at the end: the chat moves to the top (read again), the end is unchanged.
    const mid = 1234;
    await api.post('/sandbox/messages', { chat_id: String(BASE + mid), body: 'Hello again' }, { 'x-phone': phone.phoneId });
    await scrollToTop();
    await until(
      () => top.getAttribute('data-chat-id'),
      (id) => id === chatOf(mid),
      10_000,
      'chat 1234 on top',
    );
    expect((await rendered()).slice(0, 2).map((r) => r[0])).toEqual([chatOf(mid), chatOf(far)]);
    expect((await scrollToEnd(CHATS)).last[0]).toBe(chatOf(CHATS - 1));
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it("the unread and open-ticket filters are the server's, paged the same way; opening a chat reads it for this member", async () => {
    await scrollToTop();
    await page.getByLabel('Unread').check();
    // every 10th chat, and the two that wrote above (the whole list's 4th row is chat 1, this one's chat 10)
    await until(
      async () => (await rendered()).slice(0, 4).map((r) => r[0]),
      (top4) => top4.join() === [chatOf(1234), chatOf(CHATS - 3), chatOf(0), chatOf(10)].join(),
      10_000,
      'unread chats',
    );
    const unread = await scrollToEnd(CHATS / 10 + 2);
    expect(unread.last[0]).toBe(chatOf(CHATS - 10));
    await scrollToTop();
    await page.getByLabel('Open ticket').check();
    expect(new URL(page.url()).search).toBe('?unread=1&ticket=open');
    // every 50th chat is also a 10th: 60 chats, one page
    await until(rendered, (r) => r.length > 0 && r[0][2] === CHATS / 50, 10_000, 'unread chats with an open ticket');
    expect((await rendered()).every(([id]) => (Number(id.replace('@c.us', '')) - BASE) % 50 === 0)).toBe(true);
    expect(await page.locator('ul.chat-list .mark.ticket').count()).toBeGreaterThan(0);

    // Opening one reads it for this member: it leaves the unread list once the list is read again; a
    // reload keeps it read; the token (the phone's count) still counts it.
    const first = page.locator('ul.chat-list > li').first().locator('a');
    const opened = (await first.getAttribute('data-chat-id')) as string;
    await first.click();
    await until(
      () => page.locator(`a[data-chat-id="${opened}"] .unread`).count(),
      (n) => n === 0,
      10_000,
      'the opened chat read',
    );
    await page.goto(`${consoleUrl}/console/chats?unread=1&ticket=open`);
    await until(rendered, (r) => r.length > 0 && r[0][2] === CHATS / 50 - 1, 10_000, 'one fewer unread');
    expect((await rendered()).map((r) => r[0])).not.toContain(opened);
    const viaToken = await api.get(`/chats/${encodeURIComponent(opened)}`);
    expect(viaToken.body.message_unread_count).toBe(1);
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('reads the first page alone: the read again on the socket connecting and the ticket markers follow its answer', async () => {
    // A new document: its socket connects while the list's first read is held (until socket.io's
    // connect packet, and a little more). Nothing else is asked of the list's data meanwhile; once it is
    // answered, the rows show, and the list (what the socket missed) and the open tickets are read.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: await page.context().storageState() });
    const fresh = await context.newPage();
    fresh.on('pageerror', (e) => pageErrors.push(`page error: ${e.message}`));
    let connected!: () => void;
    const socketUp = new Promise<void>((resolve) => (connected = resolve));
    fresh.on('websocket', (ws) => ws.on('framereceived', (f) => void (String(f.payload).startsWith('40') && connected())));
    const asked: string[] = [];
    let firstAnswered = false;
    fresh.on('request', (r) => {
      const path = new URL(r.url()).pathname + new URL(r.url()).search;
      if (/^\/v1\/(chats\?|tickets)/.test(path)) asked.push(`${firstAnswered ? 'after' : 'during'} ${path.split('?')[0]}`);
    });
    let holding = true;
    await fresh.route(/\/v1\/chats\?/, async (route: Route) => {
      if (holding) {
        holding = false;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const up = await Promise.race([
          socketUp.then(() => true),
          new Promise((resolve) => (timer = setTimeout(() => resolve(false), 10_000))),
        ]);
        clearTimeout(timer);
        if (!up) pageErrors.push('the socket did not connect within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 300)); // the page handles the connection
        firstAnswered = true;
      }
      await route.continue().catch(() => undefined); // the page may be closed meanwhile
    });
    try {
      await fresh.goto(`${consoleUrl}/console/chats`);
      await fresh.locator('ul.chat-list > li a').first().waitFor({ timeout: 15_000 });
      expect(pageErrors).toEqual([]);
      await until(
        async () => asked.join(),
        () => asked.includes('after /v1/chats') && asked.includes('after /v1/tickets'),
        10_000,
        'the list and the tickets read after the first page',
      );
      expect(asked.filter((a) => a.startsWith('during'))).toEqual(['during /v1/chats']);
      expect(await fresh.locator('ul.chat-list > li').count()).toBeGreaterThan(5);
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
