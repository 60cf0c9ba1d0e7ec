import type { Browser, Page } from 'playwright-core';
import { randomDigits } from '@mapi/testing';
import { checkPage } from './support/browser';
import { joinByInvitation } from './support/console-session';
import { client, until } from './support/http';
import { signedInPage, startInboxConsole } from './support/inbox-console';
import type { Stack } from './support/stack';

/**
 * The inbox's keyboard (issue 33 item 4) over the real stack (phones with the sandbox network,
 * members, inbox, the console) and Debian's Chromium: `?` shows the shortcuts (accessible, Escape
 * closes it); j / k move through the chat list and stop at its ends; `/` focuses the search, where
 * letters are typed and not taken as shortcuts until Escape leaves the field; `r` focuses the
 * composer; `a` assigns the open chat to the signed-in agent (read back through the API); `c` opens
 * the close form of the chat's open ticket, closed from the keyboard (closed in the API, the note on
 * the chat).
 */
describe('console: the keyboard shortcuts', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let consoleUrl: string;
  let api: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const started = Date.now();
    const world = await startInboxConsole();
    ({ stack, browser, consoleUrl, api } = world);
    const consoleReady = world.consoleReady;
    w.phone = world.phone;
    const x = { 'x-phone': w.phone.phoneId };
    // Three customers, one after the other: the list shows the last one first.
    w.customers = [randomDigits(), randomDigits(), randomDigits()];
    for (const [i, c] of w.customers.entries()) {
      const res = await api.post('/sandbox/messages', { chat_id: c, body: `Question ${i + 1} from a customer`, sender_name: `C${i}` }, x);
      if (res.status !== 200) throw new Error(`sandbox message: ${res.status} ${JSON.stringify(res.body)}`);
    }
    await until(
      () => api.get('/chats'),
      (r) => r.body?.chats?.length === 3,
      15_000,
      'the three chats',
    );
    w.listed = (await api.get('/chats')).body.chats.map((c: any) => c.chat_id);
    expect(w.listed).toEqual([...w.customers].reverse().map((c: string) => `${c}@c.us`));
    // The middle chat has an open ticket.
    w.middle = w.listed[1];
    const ticket = await api.post('/tickets/create', { chat_id: w.middle, subject: 'Broken charger' }, x);
    expect(ticket.status).toBe(200);
    await Promise.all([
      joinByInvitation(stack.baseUrl, api, { emails: ['agent@example.com'], role: 'admin' }, 'correct horse battery'),
      consoleReady,
    ]);
    page = await signedInPage({ browser, consoleUrl }, 'agent@example.com', 'correct horse battery', pageErrors);
    process.stdout.write(`console keyboard: stack, seed and sign-in ready in ${Date.now() - started} ms\n`);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 60_000);

  const x = () => ({ 'x-phone': w.phone.phoneId });
  /** The chat open in the address (null on the list alone). */
  const openChat = () => {
    const m = /\/console\/chats\/([^?]+)/.exec(page.url());
    return m ? decodeURIComponent(m[1]) : null;
  };
  const activeId = () => page.evaluate('document.activeElement && document.activeElement.id') as Promise<string | null>;
  const waitOpen = (chatId: string) =>
    until(
      async () => openChat(),
      (c) => c === chatId,
      5_000,
      `${chatId} open`,
    );

  it('? shows the shortcuts; j / k move through the list and stop at its ends; / searches, typing is not a shortcut', async () => {
    const t0 = Date.now();
    await page.goto(`${consoleUrl}/console/chats`);
    await page.locator('a[data-chat-id]').nth(2).waitFor({ timeout: 10_000 });

    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor({ timeout: 5_000 });
    const rows = await help.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.textContent?.replace(/\s+/g, ' ').trim()));
    expect(rows).toEqual([
      'jNext chat in the list',
      'kPrevious chat in the list',
      '/Search the chats',
      'rReply: write in the open chat',
      'aAssign the open chat to me',
      "cClose the open chat's ticket (with a note)",
      '?Show these shortcuts',
      'EscLeave a text field (then the keys above work); close this list',
    ]);
    expect([...(await checkPage(page, 'k01-shortcut-help')), ...pageErrors.splice(0)]).toEqual([]);
    // Keys do nothing behind the open dialog; Escape closes it.
    await page.keyboard.press('j');
    expect(openChat()).toBeNull();
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden', timeout: 5_000 });

    // j opens the first chat, then the next; k goes back; k at the first one stays and says so.
    await page.keyboard.press('j');
    await waitOpen(w.listed[0]);
    await page.keyboard.press('j');
    await waitOpen(w.listed[1]);
    expect(await page.locator('a[aria-current="page"][data-chat-id]').getAttribute('data-chat-id')).toBe(w.listed[1]);
    await page.getByText('Question 2 from a customer').last().waitFor({ timeout: 10_000 });
    await page.keyboard.press('j');
    await waitOpen(w.listed[2]);
    await page.keyboard.press('j');
    await page.getByText('This is the last chat of the list.').waitFor({ timeout: 5_000 });
    expect(openChat()).toBe(w.listed[2]);
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    await waitOpen(w.listed[0]);
    await page.keyboard.press('k');
    await page.getByText('This is the first chat of the list.').waitFor({ timeout: 5_000 });

    // / focuses the search; letters typed there are text, not shortcuts; Escape leaves the field.
    await page.keyboard.press('/');
    expect(await activeId()).toBe('chat-search');
    await page.keyboard.type('jk');
    expect(await page.locator('#chat-search').inputValue()).toBe('jk');
    expect(openChat()).toBe(w.listed[0]);
    await page.keyboard.press('Escape');
    expect(await activeId()).not.toBe('chat-search');
    await page.keyboard.press('j');
    await waitOpen(w.listed[1]);
    // With a modifier the key is the browser's (Ctrl+K focuses nothing of ours, opens no chat).
    await page.keyboard.press('Control+k');
    expect(openChat()).toBe(w.listed[1]);
    expect(pageErrors).toEqual([]);
    process.stdout.write(`console keyboard: help, list and search ${Date.now() - t0} ms\n`);
  }, 40_000);

  it('r focuses the composer; a assigns the chat to me; c closes its ticket with a note, from the keyboard', async () => {
    const t0 = Date.now();
    expect(openChat()).toBe(w.middle);
    const panel = page.getByRole('complementary', { name: 'Chat details' });
    await panel.locator('li.panel-ticket', { hasText: 'Broken charger' }).waitFor({ timeout: 10_000 });

    await page.keyboard.press('r');
    expect(await activeId()).toBe('composer-message');
    await page.keyboard.type('a reply, c');
    expect(await page.locator('#composer-message').inputValue()).toBe('a reply, c');
    // Nothing was assigned or opened while typing.
    expect((await api.get(`/chats/${encodeURIComponent(w.middle)}`, x())).body.assigned_to ?? null).toBeNull();
    expect(await panel.getByLabel('Closing note').count()).toBe(0);
    await page.keyboard.press('Escape');

    await page.keyboard.press('a');
    await panel.getByText('Assigned to you.').waitFor({ timeout: 10_000 });
    const chat = await until(
      () => api.get(`/chats/${encodeURIComponent(w.middle)}`, x()),
      (r) => r.body?.assigned_to === 'agent@example.com',
      10_000,
      'the chat assigned to the agent',
    );
    expect(chat.status).toBe(200);
    expect(await panel.getByLabel('Assigned to').inputValue()).toBe('agent@example.com');
    await page.keyboard.press('a');
    await panel.getByText('This chat is already assigned to you.').waitFor({ timeout: 5_000 });

    // c: the close form of the open ticket, its note focused; Tab to "Close ticket", Enter.
    await page.keyboard.press('c');
    const note = panel.getByLabel('Closing note');
    await note.waitFor({ timeout: 5_000 });
    await until(
      () => note.evaluate((el) => el === el.ownerDocument.activeElement),
      (v) => v,
      3_000,
      'the closing note focused',
    );
    await page.keyboard.type('Sent a new charger');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const closed = await until(
      () => api.get(`/tickets?chat_id=${encodeURIComponent(w.middle)}`, x()),
      (r) => r.body?.tickets?.[0]?.status === 'closed',
      10_000,
      'the ticket closed',
    );
    expect(closed.body.tickets).toHaveLength(1);
    const notes = await api.get(`/chats/${encodeURIComponent(w.middle)}/notes`, x());
    expect(notes.body.notes.map((n: any) => n.body)).toContain('Ticket closed: Broken charger\nSent a new charger');
    // c again once the panel shows the ticket closed (its list is read again after the close answers)
    await until(
      () => panel.getByTestId('panel-ticket-state').first().textContent(),
      (t) => !!t?.startsWith('closed'),
      10_000,
      'the panel showing the ticket closed',
    );
    await page.keyboard.press('c');
    await panel.getByText('No open ticket on this chat to close.').waitFor({ timeout: 5_000 });

    // The next chat's panel does not repeat the last key: that chat stays unassigned, no note.
    await page.keyboard.press('j');
    await waitOpen(w.listed[2]);
    await panel.getByText('No tickets on this chat.').waitFor({ timeout: 10_000 });
    await panel.getByLabel('Assigned to').waitFor({ timeout: 10_000 });
    expect(await panel.getByRole('status').allTextContents()).toEqual([]);
    expect((await api.get(`/chats/${encodeURIComponent(w.listed[2])}`, x())).body.assigned_to ?? null).toBeNull();

    // On the list alone the chat's keys say what is needed first.
    await page.goto(`${consoleUrl}/console/chats`);
    await page.locator('a[data-chat-id]').first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('r');
    await page.getByText('Open a chat first (j and k move through the list).').waitFor({ timeout: 5_000 });
    expect([...(await checkPage(page, 'k02-keyboard-list')), ...pageErrors.splice(0)]).toEqual([]);
    process.stdout.write(`console keyboard: reply, assign and close ${Date.now() - t0} ms\n`);
  }, 40_000);
});
