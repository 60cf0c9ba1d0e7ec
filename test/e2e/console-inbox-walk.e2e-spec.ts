import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { randomDigits } from '@mapi/testing';
import { checkPage } from './support/browser';
import { joinByInvitation } from './support/console-session';
import { client, until } from './support/http';
import { sendPicture, sentPictureShown } from './support/picture';
import { signedInPage, startInboxConsole } from './support/inbox-console';
import type { Stack } from './support/stack';

/** INBOX_SCREENSHOTS=1: the inbox's pictures for the docs (docs/images/console-inbox-*.png); off in CI. */
const DOC_SHOTS = process.env.INBOX_SCREENSHOTS === '1' ? join(__dirname, '..', '..', 'docs', 'images') : null;
const PASSWORD = 'correct horse battery';

/**
 * The two-agent walk of issue 33 (item 6) over the real stack (phones with the sandbox network,
 * members, queue, inbox, the console) and Debian's Chromium. Agent Ana signs in, filters "Mine",
 * searches a customer by name, opens the chat, replies to the customer's message quoting it (the quote
 * travels through the queue and the sandbox network: the stored reply has quoted_message_id), reacts,
 * attaches an image (the sandbox network keeps the file in the media storage: Ben sees the picture), opens
 * a ticket from a message, assigns it, labels the chat and closes the ticket.
 * Agent Ben, in a second browser context with the same chat open, sees each change live in the same
 * document. Cleo, a member who reaches only chats labelled "wholesale", has her list open throughout:
 * a wholesale chat's message reaches her live, while the customer's chat (labelled VIP) never shows,
 * neither in her list nor by its address.
 */
describe('console: the inbox walk (two agents)', () => {
  let stack: Stack;
  let browser: Browser;
  let consoleUrl: string;
  let api: ReturnType<typeof client>;
  let ana: Page;
  let ben: Page;
  let cleo: Page;
  let storageDir: string | null = null;
  const w: Record<string, any> = {};
  const errors: string[] = [];

  beforeAll(async () => {
    const started = Date.now();
    const world = await startInboxConsole({ media: true, sending: true });
    ({ stack, browser, consoleUrl, api, storageDir } = world);
    w.phone = world.phone;
    const x = { 'x-phone': w.phone.phoneId };
    const inbound = async (customer: string, body: string, sender_name: string) => {
      const res = await api.post('/sandbox/messages', { chat_id: customer, body, sender_name }, x);
      if (res.status !== 200) throw new Error(`sandbox message: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body as { unique_id: string; message_id: string };
    };
    w.inbound = inbound;
    [w.carla, w.dora, w.wholesale] = [randomDigits(), randomDigits(), randomDigits()].map((d) => ({ digits: d, chat: `${d}@c.us` }));
    w.question = await inbound(w.carla.digits, 'Hello, my parcel 1042 arrived damaged', 'Carla Ruiz');
    w.ask = await inbound(w.carla.digits, 'Can you send a replacement?', 'Carla Ruiz');
    await inbound(w.dora.digits, 'Do you ship to Norway?', 'Dora Berg');
    await inbound(w.wholesale.digits, 'Order for 40 boxes', 'Wholesale Inc');
    await until(
      () => api.get('/chats', x),
      (r) => r.body?.chats?.length === 3,
      15_000,
      'the three chats',
    );
    for (const body of [
      { name: 'VIP', color: '#bf3989', type: 'chat' },
      { name: 'wholesale', color: '#1a7f37', type: 'chat' },
    ])
      expect((await api.post('/labels/create', body)).status).toBeLessThan(300);
    await Promise.all([
      joinByInvitation(stack.baseUrl, api, { emails: ['ana@example.com'], role: 'member' }, PASSWORD),
      joinByInvitation(stack.baseUrl, api, { emails: ['ben@example.com'], role: 'member' }, PASSWORD),
      // Reaches only chats labelled "wholesale".
      joinByInvitation(stack.baseUrl, api, { emails: ['cleo@example.com'], role: 'member', labels: ['wholesale'] }, PASSWORD),
      world.consoleReady,
    ]);
    for (const [chat, assigned_to] of [
      [w.carla.chat, 'ana@example.com'],
      [w.wholesale.chat, 'ana@example.com'],
      [w.dora.chat, 'ben@example.com'],
    ])
      expect((await api.patch(`/chats/${chat}`, { assigned_to }, x)).status).toBe(200);
    expect((await api.patch('/chats/labels', { labels: 'wholesale', chat_ids: [w.wholesale.chat] }, x)).status).toBeLessThan(300);
    [ana, ben, cleo] = await Promise.all(
      ['ana@example.com', 'ben@example.com', 'cleo@example.com'].map((email) =>
        signedInPage({ browser, consoleUrl }, email, PASSWORD, errors),
      ),
    );
    process.stdout.write(`console inbox walk: stack, seed and sign-in ready in ${Date.now() - started} ms\n`);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (storageDir) rmSync(storageDir, { recursive: true, force: true });
  }, 60_000);

  const ids = (p: Page) => p.locator('a[data-chat-id]').evaluateAll((as) => as.map((a) => a.getAttribute('data-chat-id')));
  const row = (p: Page, chat: string) => p.locator(`a[data-chat-id="${chat}"]`);
  const message = (p: Page, text: string) => p.locator('ol.messages > li[data-message-id]', { hasText: text });
  const panelOf = (p: Page) => p.getByRole('complementary', { name: 'Chat details' });
  const chatPage = (chat: string) => `${consoleUrl}/console/chats/${encodeURIComponent(chat)}?phone=${w.phone.number}`;

  it("two agents work one customer's chat, each change live for the other; a member out of the label's reach never sees it", async () => {
    const t0 = Date.now();
    // Ben has the customer's chat open, Cleo her list; neither page is loaded again from here on.
    await ben.goto(chatPage(w.carla.chat));
    await message(ben, 'Can you send a replacement?').waitFor({ timeout: 10_000 });
    await row(ben, w.carla.chat).waitFor({ timeout: 10_000 });
    await cleo.goto(`${consoleUrl}/console/chats`);
    await row(cleo, w.wholesale.chat).waitFor({ timeout: 10_000 });
    // Every chat id Cleo's page ever shows, and any of the customer's words it ever shows, are recorded
    // on each change of the document (page code as a string: this program has no DOM types).
    const words = ['Carla', 'parcel 1042', 'replacement', w.carla.digits];
    await cleo.evaluate(`(() => {
      const words = ${JSON.stringify(words)};
      window.__seen = [];
      window.__leaks = [];
      const note = () => {
        for (const a of document.querySelectorAll('[data-chat-id]')) {
          const id = a.getAttribute('data-chat-id');
          if (!window.__seen.includes(id)) window.__seen.push(id);
        }
        const text = document.body.innerText;
        for (const word of words) if (text.includes(word) && !window.__leaks.includes(word)) window.__leaks.push(word);
      };
      note();
      new MutationObserver(note).observe(document.body, { childList: true, subtree: true, characterData: true });
    })()`);
    for (const p of [ben, cleo]) await p.evaluate('window.__sameDocument = true');

    // Ana: "Mine", then the customer by name, then the chat (the filters kept in the address).
    await ana.goto(`${consoleUrl}/console/chats`);
    await row(ana, w.dora.chat).waitFor({ timeout: 10_000 });
    await ana.getByLabel('Assigned').selectOption('mine');
    await until(
      () => ids(ana),
      (l) => l.length === 2,
      10_000,
      'her two chats',
    );
    expect((await ids(ana)).sort()).toEqual([w.carla.chat, w.wholesale.chat].sort());
    const search = ana.getByRole('searchbox', { name: 'Search' });
    await search.fill('carla');
    await search.press('Enter');
    await until(
      () => ids(ana),
      (l) => l.length === 1 && l[0] === w.carla.chat,
      10_000,
      'the customer found',
    );
    // The row names the customer (GET /chats fills chat_name from her contact: the sandbox's sender name), her number beside it.
    expect([
      await row(ana, w.carla.chat).locator('.chat-title').textContent(),
      await row(ana, w.carla.chat).locator('.chat-number').textContent(),
    ]).toEqual(['Carla Ruiz', `+${w.carla.digits}`]);
    await row(ana, w.carla.chat).click();
    await message(ana, 'Hello, my parcel 1042 arrived damaged').waitFor({ timeout: 10_000 });
    const address = new URL(ana.url());
    expect([address.searchParams.get('assigned'), address.searchParams.get('q')]).toEqual(['mine', 'carla']);

    // A reply quoting the customer's message: the stored reply has its quote (through the sandbox network); both pages show it.
    await message(ana, 'Hello, my parcel 1042 arrived damaged')
      .getByRole('button', { name: /^Reply to:/ })
      .click();
    await ana.getByLabel('Message', { exact: true }).fill('Sorry about that: a replacement ships today');
    await ana.getByRole('button', { name: 'Send', exact: true }).click();
    for (const p of [ana, ben]) {
      const quote = message(p, 'a replacement ships today').locator('blockquote.quote .quote-text');
      await until(
        () => quote.textContent({ timeout: 15_000 }),
        (t) => t === 'Hello, my parcel 1042 arrived damaged',
        15_000,
        'the quote',
      );
    }
    // The quote names the customer as her chat is named (not her number).
    expect(await message(ana, 'a replacement ships today').locator('blockquote.quote .quote-sender').textContent()).toBe('Carla Ruiz');
    const stored = (await api.get(`/chats/${w.carla.chat}/messages?limit=5`, { 'x-phone': w.phone.phoneId })).body.messages.find(
      (m: any) => m.from_me && m.body === 'Sorry about that: a replacement ships today',
    );
    expect(stored.quoted_message_id).toBe(w.question.unique_id);

    // Meanwhile a wholesale customer writes: Cleo's list shows it live (her socket works; reach is what hides the other chat).
    await w.inbound(w.wholesale.digits, 'Can you add 10 more?', 'Wholesale Inc');
    await until(
      () => row(cleo, w.wholesale.chat).locator('.preview').textContent(),
      (t) => t === 'Can you add 10 more?',
      10_000,
      'Cleo live',
    );

    // A reaction, then an image with a caption.
    const ask = message(ana, 'Can you send a replacement?');
    await ask.locator('summary', { hasText: 'React' }).click();
    await ask.getByRole('button', { name: 'React ❤️' }).click();
    await message(ben, 'Can you send a replacement?').locator('[data-reaction="❤️"]').waitFor({ timeout: 10_000 });
    await sendPicture(ana, 'Photo of the return label', 48);
    // The sandbox network kept the file in the media storage (as a real network's echo is stored): Ben's page shows the
    // picture through the media links, 48 × 48 as sent, not "(image not stored)".
    await sentPictureShown(ben, 'Photo of the return label', 48);
    expect(await ben.getByText('(image not stored)').count()).toBe(0);

    // A ticket from the customer's message, assigned to Ben: his panel and his list follow.
    const panel = panelOf(ana);
    await ana.getByRole('button', { name: 'Open a ticket from: Hello, my parcel 1042 arrived damaged' }).click();
    await panel.getByRole('form', { name: 'New ticket' }).getByRole('button', { name: 'Open ticket' }).click();
    const theirs = panelOf(ben).locator('li.panel-ticket', { hasText: 'Hello, my parcel 1042 arrived damaged' });
    await theirs.waitFor({ timeout: 10_000 });
    await row(ben, w.carla.chat).locator('.mark.ticket').waitFor({ timeout: 10_000 });
    const item = panel.locator('li.panel-ticket');
    await item.getByText('Change').click();
    await item
      .getByRole('form', { name: /^Change ticket/ })
      .getByLabel('Assignee')
      .selectOption('ben@example.com');
    await item.getByRole('button', { name: 'Save ticket' }).click();
    const state = theirs.getByTestId('panel-ticket-state');
    await until(
      () => state.textContent(),
      (t) => !!t?.includes('ben@example.com'),
      10_000,
      "the ticket's assignee for Ben",
    );

    // The chat labelled VIP: a chip in Ben's panel and in his list.
    await panel.getByLabel('Add a label').fill('VIP');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await panelOf(ben).locator('[data-label="vip"]').waitFor({ timeout: 10_000 });
    await row(ben, w.carla.chat).locator('.chip[data-label="vip"]').waitFor({ timeout: 10_000 });

    // Closed with a note: Ben sees it closed, the note in the conversation, the open-ticket mark gone.
    await item.getByRole('button', { name: 'Close with a note…' }).click();
    await item.getByLabel('Closing note').fill('Replacement sent with tracking 1042-R');
    await item.getByRole('button', { name: 'Close ticket' }).click();
    await until(
      () => state.textContent(),
      (t) => !!t?.startsWith('closed'),
      10_000,
      'the ticket closed for Ben',
    );
    await ben.locator('li.note', { hasText: 'Replacement sent with tracking 1042-R' }).waitFor({ timeout: 10_000 });
    await until(
      () => row(ben, w.carla.chat).locator('.mark.ticket').count(),
      (n) => n === 0,
      10_000,
      'no open-ticket mark',
    );
    expect(await ben.evaluate('window.__sameDocument')).toBe(true);
    expect([...(await checkPage(ana, 'w01-walk-agent')), ...(await checkPage(ben, 'w02-walk-colleague'))]).toEqual([]);

    // Cleo never saw the customer's chat or a word of it, in the same document; by its address she gets an error, no message.
    expect(await cleo.evaluate('window.__sameDocument')).toBe(true);
    expect(await cleo.evaluate('window.__seen')).toEqual([w.wholesale.chat]);
    expect(await cleo.evaluate('window.__leaks')).toEqual([]);
    await cleo.goto(chatPage(w.carla.chat));
    await panelOf(cleo).getByRole('alert').first().waitFor({ timeout: 10_000 });
    await row(cleo, w.wholesale.chat).waitFor({ timeout: 10_000 });
    expect(await cleo.locator('li[data-message-id]').count()).toBe(0);
    const shown = await cleo.locator('body').innerText();
    for (const word of ['parcel 1042', 'replacement']) expect(shown).not.toContain(word);
    expect(await ids(cleo)).toEqual([w.wholesale.chat]);
    expect([...(await checkPage(cleo, 'w03-walk-out-of-reach')), ...errors]).toEqual([]);

    if (DOC_SHOTS) await docScreenshots(ana, DOC_SHOTS);
    process.stdout.write(`console inbox walk: browser flow ${Date.now() - t0} ms\n`);
  }, 75_000);

  /** The inbox as the docs show it: 1280×800, and a 390-px-wide phone at the conversation (small PNGs, the viewport only). */
  async function docScreenshots(page: Page, dir: string) {
    mkdirSync(dir, { recursive: true });
    await page.goto(`${chatPage(w.carla.chat)}&assigned=mine`);
    await row(page, w.wholesale.chat).waitFor({ timeout: 10_000 });
    await message(page, 'Photo of the return label').waitFor({ timeout: 10_000 });
    await panelOf(page).locator('li.panel-ticket').waitFor({ timeout: 10_000 });
    await page.screenshot({ path: join(dir, 'console-inbox-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('section.chat').evaluate((e: any) => e.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: join(dir, 'console-inbox-390.png') });
  }
});
