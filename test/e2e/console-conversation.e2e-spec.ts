import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { randomDigits } from '@mapi/testing';
import { checkPage } from './support/browser';
import { signedInPage, startInboxConsole } from './support/inbox-console';
import { joinByInvitation } from './support/console-session';
import { client, until } from './support/http';
import { png, sendPicture, sentPictureShown } from './support/picture';
import type { Stack } from './support/stack';

const PNG = png(96, [214, 120, 40]);
const OLD = 55; // more than one page (50) of messages before the ones the test looks at

/**
 * The console's conversation (issue 33 item 2) over the real stack (phones with the sandbox network,
 * members, queue, inbox for notes, media, the console forwarding /app/media) and Debian's Chromium: a group chat's
 * messages with their senders' names and numbers, quoted replies (one of a message not yet loaded), an image, audio and a document
 * through the media links, reactions, edits and deletions (live), a pinned message, a team note
 * between the messages, older messages read on scrolling up; then the agent replies to a message
 * (the queue's job carries reply_to), sees the sent / delivered / read marks follow the acks, reacts
 * (GET /reactions lists it, the page shows it), forwards a message to a customer's chat and sends an
 * image with a caption.
 */
describe('console: the conversation', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let consoleUrl: string;
  let storageDir = '';
  let api: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const pageErrors: string[] = [];

  const inbound = async (body: Record<string, unknown>) => {
    const res = await api.post('/sandbox/messages', { chat_id: w.group, ...body }, { 'x-phone': w.phone.phoneId });
    if (res.status !== 200) throw new Error(`sandbox message: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { unique_id: string; message_id: string };
  };
  const media = (name: string, mimetype: string, bytes: Buffer) => {
    const rel = `${w.orgId}/conversation/${name}`;
    mkdirSync(join(storageDir, 'message-media', w.orgId, 'conversation'), { recursive: true });
    writeFileSync(join(storageDir, 'message-media', rel), bytes);
    const path = `/storage/v1/object/public/message-media/${rel}`;
    return { filename: name, mimetype, path, size: bytes.length, thumbnail: '', dimensions: { ar: 1, height: 96, width: 96 } };
  };
  const row = (uniqueId: string) => page.locator(`li[data-message-id$="_${uniqueId}"]`);

  beforeAll(async () => {
    const started = Date.now();
    // The phones write the files the phone sends where the media service reads them, linked through the console.
    const world = await startInboxConsole({ media: true, sending: true });
    ({ stack, browser, consoleUrl, api } = world);
    if (!world.storageDir) throw new Error('startInboxConsole with media gives no storage folder');
    storageDir = world.storageDir;
    w.orgId = world.orgId;
    w.phone = world.phone;
    [w.ana, w.ben] = [randomDigits(), randomDigits()];
    const group = await api.post(
      '/sandbox/groups',
      { subject: 'Order 1042 team', participants: [w.ana, w.ben] },
      { 'x-phone': w.phone.phoneId },
    );
    w.group = group.body.chat_id;
    // Older messages first, one by one (their order is their time), then the ones the test reads.
    w.old = [];
    for (let i = 1; i <= OLD; i++) w.old.push(await inbound({ from: w.ben, sender_name: 'Ben', body: `Old message ${i}` }));
    w.question = await inbound({ from: w.ana, sender_name: 'Ana', body: 'Can someone check order 1042?' });
    // Quoted replies, as the network threads them (quoted_unique_id: the stored message has quoted_message_id = the quoted
    // message's network id, as Baileys ingests it); the image quotes a message older than the first page (the page fetches it).
    w.reply = await inbound({ from: w.ben, sender_name: 'Ben', body: 'On it, checking now', quoted_unique_id: w.question.unique_id });
    w.image = await inbound({
      from: w.ana,
      type: 'image',
      body: 'The damaged box',
      media: media('box.png', 'image/png', PNG),
      quoted_unique_id: w.old[2].unique_id,
    });
    w.audio = await inbound({ from: w.ana, type: 'image', body: null, media: media('note.wav', 'audio/wav', Buffer.alloc(64)) });
    w.doc = await inbound({
      from: w.ben,
      type: 'image',
      body: null,
      media: media('invoice.pdf', 'application/pdf', Buffer.from('%PDF-1.4 x')),
    });
    w.typo = await inbound({ from: w.ana, body: 'Teh parcel left on Monday' });
    w.oops = await inbound({ from: w.ben, body: 'Wrong chat, sorry' });
    const messages = await until(
      () => api.get(`/chats/${w.group}/messages?limit=10`, { 'x-phone': w.phone.phoneId }),
      (r) => r.body?.messages?.some((m: any) => m.unique_id === w.oops.unique_id),
      15_000,
      'the seeded messages',
    );
    expect(messages.status).toBe(200);
    // A customer's own chat on the same phone, to forward to.
    w.customer = randomDigits();
    await api.post('/sandbox/messages', { chat_id: w.customer, body: 'Any update on 1042?' }, { 'x-phone': w.phone.phoneId });
    const noted = await api.post(
      '/note/create',
      { chat_id: w.group, message: 'Ana is the warehouse lead' },
      { 'x-phone': w.phone.phoneId },
    );
    expect(noted.status).toBe(200);
    await api.post(
      '/sandbox/messages/react',
      { unique_id: w.question.unique_id, from: w.ben, reaction: '👍' },
      { 'x-phone': w.phone.phoneId },
    );
    await api.post(`/message/${w.image.message_id}/pin`, { pin: true }, { 'x-phone': w.phone.phoneId });
    await Promise.all([
      joinByInvitation(stack.baseUrl, api, { emails: ['agent@example.com'], role: 'admin' }, 'correct horse battery'),
      world.consoleReady,
    ]);
    page = await signedInPage({ browser, consoleUrl }, 'agent@example.com', 'correct horse battery', pageErrors, {
      width: 1280,
      height: 900,
    });
    process.stdout.write(`console conversation: stack, seed and sign-in ready in ${Date.now() - started} ms\n`);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (storageDir) rmSync(storageDir, { recursive: true, force: true });
  }, 60_000);

  it('shows senders, a quoted reply, media, reactions, a pin and a note; edits and deletions live; older messages on scrolling up', async () => {
    const t0 = Date.now();
    await page.goto(`${consoleUrl}/console/chats/${encodeURIComponent(w.group)}?phone=${w.phone.number}`);
    await row(w.oops.unique_id).waitFor({ timeout: 10_000 });

    // Senders: name and number on each group message.
    await until(
      () => row(w.question.unique_id).locator('.sender').textContent(),
      (t) => t === `Ana +${w.ana}`,
      10_000,
      "Ana's name",
    );
    expect(await row(w.reply.unique_id).locator('.sender').textContent()).toBe(`Ben +${w.ben}`);
    // The quoted reply shows the quoted message's sender and text.
    const quote = row(w.reply.unique_id).locator('blockquote.quote');
    expect(await quote.locator('.quote-sender').textContent()).toBe('Ana');
    expect(await quote.locator('.quote-text').textContent()).toBe('Can someone check order 1042?');
    // A quote of a message not loaded yet (Old message 3) is fetched and shown alike.
    const oldQuote = row(w.image.unique_id).locator('blockquote.quote .quote-text');
    await until(
      () => oldQuote.textContent(),
      (t) => t === 'Old message 3',
      10_000,
      'the older quoted message',
    );
    expect(await row(w.image.unique_id).locator('.quote-sender').textContent()).toBe('Ben');
    // Reactions under the message, the pin, and the note between the messages (after the pinned image).
    await row(w.question.unique_id).locator('[data-reaction="👍"]').waitFor({ timeout: 10_000 });
    await row(w.image.unique_id).locator('[data-pinned]').waitFor({ timeout: 10_000 });
    const order = () =>
      page
        .locator('ol.messages > li')
        .evaluateAll((els) => els.map((e: any) => (e.dataset.noteId ? 'note' : (e.dataset.messageId ?? '').split('_').pop())));
    await until(order, (ids) => ids.includes('note'), 10_000, 'the note in the timeline');
    expect((await order()).indexOf('note')).toBe((await order()).indexOf(w.oops.unique_id) + 1);
    // Media through the media links: the image loads, the players and the download point at a file that answers.
    const img = row(w.image.unique_id).locator('img[data-media="image"]');
    await until(
      () => img.evaluate((e: any) => (e.complete ? e.naturalWidth : 0)),
      (n) => n === 96,
      10_000,
      'the image loaded',
    );
    const src = (await img.getAttribute('src')) ?? '';
    expect(src.startsWith(`${consoleUrl}/app/media/message-media/${w.orgId}/conversation/box.png?jwt=`)).toBe(true);
    const audio = await row(w.audio.unique_id).locator('audio[data-media="audio"]').getAttribute('src');
    const doc = row(w.doc.unique_id).locator('a[data-media="document"]');
    expect(await doc.textContent()).toContain('invoice.pdf');
    const fetched = await page.evaluate(
      `Promise.all([${JSON.stringify(audio)}, ${JSON.stringify(await doc.getAttribute('href'))}].map((u) => fetch(u).then((r) => r.status + ' ' + r.headers.get('content-type'))))`,
    );
    expect(fetched).toEqual(['200 audio/wav', '200 application/pdf']);
    // Opened at the newest: still at the bottom once names, pins, reactions, notes and files have come in.
    await until(
      () => page.locator('ol.messages').evaluate((e: any) => e.scrollHeight - e.scrollTop - e.clientHeight),
      (gap) => gap < 2,
      5_000,
      'the conversation at its newest',
    );
    expect([...(await checkPage(page, 'c01-conversation')), ...pageErrors.splice(0)]).toEqual([]);

    // Its sender edits one message and deletes another: the marks show without a reload.
    await page.evaluate('window.__sameDocument = true');
    await api.post(
      '/sandbox/messages/edit',
      { unique_id: w.typo.unique_id, body: 'The parcel left on Monday' },
      { 'x-phone': w.phone.phoneId },
    );
    await api.post('/sandbox/messages/delete', { unique_id: w.oops.unique_id }, { 'x-phone': w.phone.phoneId });
    await row(w.typo.unique_id).locator('[data-edited]').waitFor({ timeout: 10_000 });
    expect(await row(w.typo.unique_id).locator('.body').textContent()).toBe('The parcel left on Monday');
    await row(w.oops.unique_id).locator('[data-deleted]').waitFor({ timeout: 10_000 });
    expect(await row(w.oops.unique_id).textContent()).not.toContain('Wrong chat');

    // Older messages: not there until the reader scrolls up, then above the others, in order, in place.
    const oldest = page.locator('li[data-message-id] .body', { hasText: /^Old message 1$/ });
    expect(await oldest.count()).toBe(0);
    const before = await page.locator('li[data-message-id]').count();
    expect(before).toBe(50);
    await page.locator('ol.messages').evaluate((e: any) => (e.scrollTop = 0));
    await oldest.first().waitFor({ timeout: 10_000 });
    const texts = await page.locator('li[data-message-id] .body').allTextContents();
    expect(texts.slice(0, 3)).toEqual(['Old message 1', 'Old message 2', 'Old message 3']);
    expect(await page.locator('li[data-message-id]').count()).toBe(OLD + 7);
    expect(await page.getByRole('button', { name: 'Load older messages' }).count()).toBe(0);
    // A message arriving while the reader is up there does not move them; it is at the end.
    const top = await page.locator('ol.messages').evaluate((e: any) => e.scrollTop);
    w.late = await inbound({ from: w.ana, body: 'Found it in the warehouse' });
    await row(w.late.unique_id).waitFor({ timeout: 10_000 });
    expect(await page.locator('ol.messages').evaluate((e: any) => e.scrollTop)).toBe(top);
    expect((await page.locator('li[data-message-id] .body').allTextContents()).pop()).toBe('Found it in the warehouse');
    // The note older than nothing loaded stays where it was; the page was never reloaded.
    expect(await page.locator('li[data-note-id]').count()).toBe(1);
    expect(await page.evaluate('window.__sameDocument')).toBe(true);
    process.stdout.write(`console conversation: reading flow ${Date.now() - t0} ms\n`);
  }, 60_000);

  it('replies to a quoted message (reply_to), sees sent / delivered / read marks follow the acks, and reacts', async () => {
    const t0 = Date.now();
    await row(w.question.unique_id)
      .getByRole('button', { name: /^Reply to:/ })
      .click();
    expect(await page.locator('.replying').getAttribute('data-reply-to')).toBe(w.question.message_id);
    await page.getByLabel('Message', { exact: true }).fill('Checked: it ships tomorrow');
    await page.getByRole('button', { name: 'Send' }).click();
    const jobs = await until(
      () => api.get('/queue/jobs?limit=10', { 'x-phone': w.phone.phoneId }),
      (r) => Array.isArray(r.body) && r.body.some((j: any) => j.data.body === 'Checked: it ships tomorrow'),
      10_000,
      'the send job',
    );
    const job = jobs.body.find((j: any) => j.data.body === 'Checked: it ships tomorrow');
    expect(job.data).toMatchObject({ chat_id: w.group, reply_to: w.question.message_id });
    expect(await page.locator('.replying').count()).toBe(0);

    const mine = page.locator('li.mine', { hasText: 'Checked: it ships tomorrow' });
    await mine.waitFor({ timeout: 15_000 });
    await until(
      () => mine.locator('[data-ack]').getAttribute('data-ack'),
      (a) => a === 'sent',
      10_000,
      'sent mark',
    );
    const sent = (await api.get(`/chats/${w.group}/messages?limit=5`, { 'x-phone': w.phone.phoneId })).body.messages.find(
      (m: any) => m.from_me && m.body === 'Checked: it ships tomorrow',
    );
    for (const [ack, tone] of [
      [2, 'delivered'],
      [3, 'read'],
    ] as const) {
      await api.post('/sandbox/messages/ack', { unique_id: sent.unique_id, ack }, { 'x-phone': w.phone.phoneId });
      await until(
        () => mine.locator('[data-ack]').getAttribute('data-ack'),
        (a) => a === tone,
        10_000,
        `${tone} mark`,
      );
    }
    expect(await mine.locator('.sr-only').textContent()).toBe('Read');

    // React to Ben's message from the page: the phone reacts, the API lists it, the page shows it.
    const target = row(w.reply.unique_id);
    await target.locator('summary', { hasText: 'React' }).click();
    await target.getByRole('button', { name: 'React ❤️' }).click();
    await target.locator('[data-reaction="❤️"]').waitFor({ timeout: 10_000 });
    const listed = await api.get(`/reactions?chat_id=${encodeURIComponent(w.group)}`, { 'x-phone': w.phone.phoneId });
    expect(listed.body.reactions.map((r: any) => [r.message_id, r.reaction])).toContainEqual([w.reply.message_id, '❤️']);
    expect([...(await checkPage(page, 'c02-conversation-reply')), ...pageErrors.splice(0)]).toEqual([]);
    process.stdout.write(`console conversation: reply/ack/react flow ${Date.now() - t0} ms\n`);
  }, 45_000);

  it("forwards a message to a customer's chat, and sends a file with a caption", async () => {
    const t0 = Date.now();
    // Forward Ana's update to the customer: the phone forwards it, the customer's chat has the copy.
    const source = row(w.typo.unique_id);
    await source.locator('summary', { hasText: 'Forward' }).click();
    await source.getByLabel('Forward to (numbers or chat ids, comma-separated)').fill(`+${w.customer}`);
    await source.getByRole('button', { name: 'Forward', exact: true }).click();
    await source.getByText('Forwarded to 1 chat.').waitFor({ timeout: 10_000 });
    const copy = await until(
      () => api.get(`/chats/${w.customer}@c.us/messages`, { 'x-phone': w.phone.phoneId }),
      (r) => r.body?.messages?.some((m: any) => m.from_me && m.is_forwarded),
      10_000,
      'the forwarded copy',
    );
    expect(copy.body.messages.find((m: any) => m.is_forwarded).body).toBe('The parcel left on Monday');

    // Attach an image with a caption: the queue's job carries the file (its name and type; the data is never listed).
    await sendPicture(page, 'Photo of the label', 8);
    const jobs = await until(
      () => api.get('/queue/jobs?limit=10', { 'x-phone': w.phone.phoneId }),
      (r) => Array.isArray(r.body) && r.body.some((j: any) => j.data.body === 'Photo of the label'),
      10_000,
      'the file job',
    );
    expect(jobs.body.find((j: any) => j.data.body === 'Photo of the label').data.media).toEqual({
      type: 'image',
      filename: 'label.png',
      mimetype: 'image/png',
    });
    // The sandbox network kept the file (the media storage): the page shows the picture, 8 × 8 as sent.
    await sentPictureShown(page, 'Photo of the label', 8);
    expect(await page.getByLabel('Attach a file').inputValue()).toBe('');
    expect([...(await checkPage(page, 'c03-conversation-forward-attach')), ...pageErrors.splice(0)]).toEqual([]);
    process.stdout.write(`console conversation: forward/attach flow ${Date.now() - t0} ms\n`);
  }, 40_000);
});
