import type { Browser, Page } from 'playwright-core';
import { randomDigits } from '@mapi/testing';
import { checkPage } from './support/browser';
import { browserCookies, joinByInvitation, type ConsoleSession } from './support/console-session';
import { client, until } from './support/http';
import { signedInPage, startInboxConsole } from './support/inbox-console';
import type { Stack } from './support/stack';

/**
 * The side panel beside the conversation (issue 33 item 3) over the real stack (phones with the
 * sandbox network, members, inbox, the console) and Debian's Chromium: an agent opens a customer's
 * chat, opens a ticket from one of its messages, sets its priority, assignee and a ticket property, labels the chat,
 * assigns it, sets a custom property, closes the ticket with a note; each change is read back
 * through the API. A member whose reach leaves the chat out gets the error shown, not a broken page.
 * The contact's name and labels are edited in the panel (PATCH /contacts/{contact_id}), by a member
 * only while the chat is in their reach.
 */
describe('console: the side panel', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let consoleUrl: string;
  let api: ReturnType<typeof client>;
  let outsider: ConsoleSession;
  const w: Record<string, any> = {};
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const started = Date.now();
    const world = await startInboxConsole();
    ({ stack, browser, consoleUrl, api } = world);
    const consoleReady = world.consoleReady;
    w.phone = world.phone;
    w.customer = randomDigits();
    w.chat = `${w.customer}@c.us`;
    const x = { 'x-phone': w.phone.phoneId };
    for (const body of ['Hello, my parcel 1042 arrived damaged', 'The box was crushed on one side']) {
      const res = await api.post('/sandbox/messages', { chat_id: w.customer, body, sender_name: 'Carla' }, x);
      if (res.status !== 200) throw new Error(`sandbox message: ${res.status} ${JSON.stringify(res.body)}`);
    }
    await until(
      () => api.get(`/chats/${w.chat}/messages?limit=10`, x),
      (r) => r.body?.messages?.length === 2,
      15_000,
      'the seeded messages',
    );
    expect((await api.post('/labels/create', { name: 'VIP', color: '#bf3989', type: 'chat' })).status).toBeLessThan(300);
    const plan = await api.post('/custom-properties/create', {
      property_name: 'Plan',
      property_value_type: 'dropdown',
      property_value: 'basic,gold',
      type: 'chat',
    });
    expect(plan.status).toBeLessThan(300);
    const courier = await api.post('/custom-properties/create', { property_name: 'Courier', property_value_type: 'text', type: 'ticket' });
    expect(courier.status).toBeLessThan(300);
    w.courier = courier.body.property_id;
    [, , outsider] = await Promise.all([
      joinByInvitation(stack.baseUrl, api, { emails: ['agent@example.com'], role: 'admin' }, 'correct horse battery'),
      joinByInvitation(stack.baseUrl, api, { emails: ['bo@example.com'], role: 'member' }, 'correct horse battery'),
      // Reaches only chats labelled "wholesale": not this one.
      joinByInvitation(stack.baseUrl, api, { emails: ['out@example.com'], role: 'member', labels: ['wholesale'] }, 'correct horse battery'),
      consoleReady,
    ]);
    page = await signedInPage({ browser, consoleUrl }, 'agent@example.com', 'correct horse battery', pageErrors);
    process.stdout.write(`console side panel: stack, seed and sign-in ready in ${Date.now() - started} ms\n`);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 60_000);

  const tickets = () => api.get(`/tickets?chat_id=${encodeURIComponent(w.chat)}`, { 'x-phone': w.phone.phoneId });
  const chat = () => api.get(`/chats/${encodeURIComponent(w.chat)}`, { 'x-phone': w.phone.phoneId });

  it('opens a ticket from a message, changes and closes it; labels, assigns and sets a property on the chat', async () => {
    const t0 = Date.now();
    await page.goto(`${consoleUrl}/console/chats/${encodeURIComponent(w.chat)}?phone=${w.phone.number}`);
    const panel = page.getByRole('complementary', { name: 'Chat details' });
    await panel.getByText('No tickets on this chat.').waitFor({ timeout: 10_000 });
    // The contact: name, number, labels.
    expect(await panel.getByTestId('contact-number').textContent()).toBe(`+${w.customer}`);
    expect(await panel.getByTestId('contact-labels').textContent()).toBe('none');

    // A ticket from a message: its first line as the subject, the message attached.
    await page.getByRole('button', { name: 'Open a ticket from: Hello, my parcel 1042 arrived damaged' }).click();
    const form = panel.getByRole('form', { name: 'New ticket' });
    expect(await form.getByLabel('Subject').inputValue()).toBe('Hello, my parcel 1042 arrived damaged');
    await form.getByRole('button', { name: 'Open ticket' }).click();
    const item = panel.locator('li.panel-ticket');
    await item.waitFor({ timeout: 10_000 });
    const listed = (await tickets()).body.tickets;
    expect(listed).toHaveLength(1);
    w.ticket = listed[0].ticket_id;
    const info = await api.get(`/tickets/${w.ticket}`, { 'x-phone': w.phone.phoneId });
    expect(info.body.attached_messages.map((m: any) => m.body)).toEqual(['Hello, my parcel 1042 arrived damaged']);

    // Priority, assignee, due date and labels of the ticket.
    await item.getByText('Change').click();
    const change = item.getByRole('form', { name: /^Change ticket/ });
    await change.getByLabel('Priority').selectOption({ label: 'high' });
    await change.getByLabel('Assignee').selectOption('bo@example.com');
    await change.getByLabel('Due date').fill('2026-12-24');
    await change.getByLabel('Labels').fill('damage, courier');
    await change.getByRole('button', { name: 'Save ticket' }).click();
    await until(
      () => item.getByTestId('panel-ticket-state').textContent(),
      (t) => !!t?.includes('high · bo@example.com · due 2026-12-24 · courier, damage'),
      10_000,
      'the ticket changed in the panel',
    );
    const changed = await api.get(`/tickets/${w.ticket}`, { 'x-phone': w.phone.phoneId });
    expect(changed.body.ticket).toMatchObject({ priority: 3, assignee: 'bo@example.com' });
    expect(changed.body.ticket.ticket_labels.split(',').sort()).toEqual(['courier', 'damage']);
    expect(changed.body.ticket.due_date.slice(0, 10)).toBe('2026-12-24');
    // The ticket's own custom property.
    await item.locator('[data-property="Courier"] input').fill('DHL');
    await item
      .getByRole('form', { name: /^Properties of ticket/ })
      .getByRole('button', { name: 'Save properties' })
      .click();
    await until(
      () => api.get(`/tickets/${w.ticket}`, { 'x-phone': w.phone.phoneId }),
      (r) => Object.values(r.body?.ticket?.ticket_custom_properties ?? {}).includes('DHL'),
      10_000,
      "the ticket's property set",
    );

    // The chat: a label from the catalogue, an assignee, the Plan property.
    await panel.getByLabel('Add a label').fill('VIP');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await panel.locator('[data-label="vip"]').waitFor({ timeout: 10_000 });
    await panel.getByLabel('Assigned to').selectOption('agent@example.com');
    await panel.locator('[data-property="Plan"] select').selectOption('gold');
    await panel.getByRole('form', { name: 'Custom properties' }).getByRole('button', { name: 'Save properties' }).click();
    const after = await until(
      chat,
      (r) => r.body?.assigned_to === 'agent@example.com' && Object.values(r.body?.custom_properties ?? {}).includes('gold'),
      10_000,
      'the chat assigned, its property set',
    );
    const vip = (await api.get('/labels?type=chat')).body.labels.find((l: any) => l.name.toLowerCase() === 'vip');
    expect(after.body.label_ids).toEqual({ [vip.label_id]: true });
    expect(await panel.locator('[data-property="Plan"] select').inputValue()).toBe('gold');
    expect(await panel.getByLabel('Assigned to').inputValue()).toBe('agent@example.com');
    expect([...(await checkPage(page, 's01-side-panel')), ...pageErrors.splice(0)]).toEqual([]);

    // Remove the label again, then close the ticket with a note.
    await panel.getByRole('button', { name: 'Remove label vip' }).click();
    await panel.getByText('No labels.').waitFor({ timeout: 10_000 });
    expect((await chat()).body.label_ids).toEqual({});
    await item.getByRole('button', { name: 'Close with a note…' }).click();
    await item.getByLabel('Closing note').fill('Replacement sent by courier');
    await item.getByRole('button', { name: 'Close ticket' }).click();
    await until(
      () => item.getByTestId('panel-ticket-state').textContent(),
      (t) => !!t?.startsWith('closed'),
      10_000,
      'the ticket closed',
    );
    expect((await api.get(`/tickets/${w.ticket}`, { 'x-phone': w.phone.phoneId })).body.ticket.closed_at).toBeTruthy();
    const notes = await api.get(`/chats/${encodeURIComponent(w.chat)}/notes`, { 'x-phone': w.phone.phoneId });
    expect(notes.body.notes.map((n: any) => n.body)).toContain(
      'Ticket closed: Hello, my parcel 1042 arrived damaged\nReplacement sent by courier',
    );
    // The note shows in the conversation too (live).
    await page.locator('li.note', { hasText: 'Replacement sent by courier' }).waitFor({ timeout: 10_000 });

    // A ticket raised elsewhere (the API) shows in the panel live.
    expect((await api.post('/tickets/create', { chat_id: w.chat, subject: 'Refund 1042' }, { 'x-phone': w.phone.phoneId })).status).toBe(
      200,
    );
    await panel.locator('li.panel-ticket', { hasText: 'Refund 1042' }).waitFor({ timeout: 10_000 });
    expect([...(await checkPage(page, 's02-side-panel-closed')), ...pageErrors.splice(0)]).toEqual([]);

    // On a phone-wide screen the panel sits below the conversation.
    await page.setViewportSize({ width: 390, height: 844 });
    const [conv, side] = await Promise.all([page.locator('section.chat').boundingBox(), panel.boundingBox()]);
    if (!conv || !side) throw new Error('the conversation or the panel is not shown');
    expect(side.y).toBeGreaterThanOrEqual(conv.y + conv.height - 1);
    expect(side.x + side.width).toBeLessThanOrEqual(391);
    expect([...(await checkPage(page, 's03-side-panel-phone')), ...pageErrors.splice(0)]).toEqual([]);
    process.stdout.write(`console side panel: agent flow ${Date.now() - t0} ms\n`);
  }, 45_000);

  it('a member whose reach leaves the chat out gets an error, not a broken page', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await ctx.addCookies(browserCookies(outsider, consoleUrl));
    const other = await ctx.newPage();
    const errors: string[] = [];
    other.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await other.goto(`${consoleUrl}/console/chats/${encodeURIComponent(w.chat)}?phone=${w.phone.number}`);
    const panel = other.getByRole('complementary', { name: 'Chat details' });
    await panel.getByRole('alert').waitFor({ timeout: 10_000 });
    expect(await panel.getByRole('alert').textContent()).toContain("This chat's details could not be read");
    expect(await panel.getByText('No tickets on this chat.').count()).toBe(1);
    expect((await outsider.call('PATCH', '/chats/labels', { labels: 'vip', chat_ids: [w.chat] })).status).toBe(404);
    expect([...(await checkPage(other, 's04-side-panel-no-reach')), ...errors]).toEqual([]);
    await ctx.close();
  }, 20_000);

  it("edits the contact's name and labels; a member reaches the contact only while its chat is in reach", async () => {
    const t0 = Date.now();
    const contact = () => api.get(`/contacts/${encodeURIComponent(w.chat)}`, { 'x-phone': w.phone.phoneId });
    await page.setViewportSize({ width: 1280, height: 800 });
    const panel = page.getByRole('complementary', { name: 'Chat details' });
    await panel.getByTestId('contact-number').waitFor({ timeout: 10_000 });
    await panel.getByText('Edit contact').click();
    const form = panel.getByRole('form', { name: 'Edit contact' });
    await form.getByLabel('Contact name').fill('Carla Ruiz');
    await form.getByLabel('Contact labels').fill('Wholesale, returns ,wholesale');
    await form.getByRole('button', { name: 'Save contact' }).click();
    await until(
      () => panel.getByTestId('contact-labels').textContent(),
      (t) => t === 'wholesale, returns', // as given (lower case, once each)
      10_000,
      "the contact's labels in the panel",
    );
    expect(await panel.getByTestId('contact-name').textContent()).toBe('Carla Ruiz');
    expect((await contact()).body).toMatchObject({ contact_name: 'Carla Ruiz', labels: ['wholesale', 'returns'] });
    // A name cannot be emptied: said on the page, nothing sent.
    await form.getByLabel('Contact name').fill(' ');
    await form.getByRole('button', { name: 'Save contact' }).click();
    const card = (p: Page) => p.locator('section[aria-labelledby="panel-contact"]');
    expect(await card(page).getByRole('alert').textContent()).toContain('cannot be emptied');
    expect((await contact()).body.contact_name).toBe('Carla Ruiz');
    expect([...(await checkPage(page, 's05-side-panel-contact')), ...pageErrors.splice(0)]).toEqual([]);

    // The member who reaches chats labelled "wholesale" (contact labels give no reach): refused until the chat has that label.
    expect((await outsider.call('PATCH', `/contacts/${w.chat}`, { contact_name: 'Nope' })).status).toBe(404);
    const x = { 'x-phone': w.phone.phoneId };
    expect((await api.patch('/chats/labels', { labels: 'wholesale', chat_ids: [w.chat] }, x)).status).toBeLessThan(300);
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await ctx.addCookies(browserCookies(outsider, consoleUrl));
    const other = await ctx.newPage();
    const errors: string[] = [];
    other.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    await other.goto(`${consoleUrl}/console/chats/${encodeURIComponent(w.chat)}?phone=${w.phone.number}`);
    const theirs = other.getByRole('complementary', { name: 'Chat details' });
    await until(
      () => theirs.getByTestId('contact-name').textContent({ timeout: 10_000 }),
      (t) => t === 'Carla Ruiz',
      10_000,
      'the contact for the member in reach',
    );
    await theirs.getByText('Edit contact').click();
    const edit = theirs.getByRole('form', { name: 'Edit contact' });
    await edit.getByLabel('Contact name').fill('Carla R.');
    await edit.getByRole('button', { name: 'Save contact' }).click();
    await theirs.getByText('Contact saved.').waitFor({ timeout: 10_000 });
    expect((await contact()).body.contact_name).toBe('Carla R.');
    // The chat loses its label: the same change is refused, the page says why, nothing changes.
    expect((await api.patch('/chats/labels', { labels: '', chat_ids: [w.chat] }, x)).status).toBeLessThan(300);
    await edit.getByLabel('Contact name').fill('Out of reach');
    await edit.getByRole('button', { name: 'Save contact' }).click();
    await until(
      () => card(other).getByRole('alert').textContent(),
      (t) => !!t?.startsWith('The contact did not change:') && t.includes('outside your reach'),
      10_000,
      'the refusal on the page',
    );
    expect((await contact()).body.contact_name).toBe('Carla R.');
    expect([...(await checkPage(other, 's06-side-panel-contact-reach')), ...errors]).toEqual([]);
    await ctx.close();
    process.stdout.write(`console side panel: contact flow ${Date.now() - t0} ms\n`);
  }, 40_000);

  it("switching to a chat asks its messages first: the panel's reads follow their answer", async () => {
    // The messages of the chat are held; meanwhile nothing of the side panel is asked. Once they are
    // answered, the newest message shows and the panel reads the chat's tickets, contact and catalogues.
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: await page.context().storageState() });
    const fresh = await ctx.newPage();
    const errors: string[] = [];
    fresh.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
    const asked: string[] = [];
    let answered = false;
    const panelRead = /^\/v1\/(tickets\?chat_id=|contacts\/|members$|custom-properties$)/;
    fresh.on('request', (r) => {
      const u = new URL(r.url());
      if (panelRead.test(u.pathname + u.search)) asked.push(`${answered ? 'after' : 'during'} ${u.pathname}`);
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let seen!: () => void;
    const reached = new Promise<void>((resolve) => (seen = resolve));
    await fresh.route(/\/v1\/chats\/[^/?]+\/messages\?/, async (route) => {
      seen();
      await held;
      answered = true;
      await route.continue().catch(() => undefined);
    });
    try {
      await fresh.goto(`${consoleUrl}/console/chats/${encodeURIComponent(w.chat)}?phone=${w.phone.number}`);
      await reached;
      await new Promise((resolve) => setTimeout(resolve, 500)); // time for the panel to ask, were it not waiting
      expect(asked).toEqual([]);
      release();
      await fresh.getByRole('list', { name: 'Messages' }).getByText('The box was crushed on one side').waitFor({ timeout: 10_000 });
      await until(
        async () => asked.join(),
        () => ['tickets', 'contacts', 'members', 'custom-properties'].every((x) => asked.some((a) => a.startsWith(`after /v1/${x}`))),
        10_000,
        "the panel's reads after the messages",
      );
      expect(asked.filter((a) => a.startsWith('during'))).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      release();
      await ctx.close();
    }
  }, 40_000);
});
