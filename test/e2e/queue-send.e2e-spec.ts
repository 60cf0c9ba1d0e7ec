import { SendAnswerSchema } from '@mapi/contracts';
import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { client, until } from './support/http';
import { connectedSandboxPhone, deleteWithBody } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * The send queue end to end: gateway, chats, phones (sandbox network) and queue as processes. Sent
 * messages reach GET messages with their sent_message_id, acks advance, Idempotency-Key repeats,
 * broadcasts, visibility, and the purge per spec 4.5 (modes, echo, 400/401/422).
 */
describe('send queue', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let token: string;
  let phoneId: string;
  const contact = randomDigits();
  const messagesOf = (chat: string) => api.get(`/chats/${chat}/messages`, { 'x-phone': phoneId });
  const sentMessage = async (queueId: string, chat = contact) =>
    (
      await until(
        () => messagesOf(chat),
        (r) => r.body?.messages?.some((m: any) => m.sent_message_id === queueId),
        15_000,
        `message ${queueId}`,
      )
    ).body.messages.find((m: any) => m.sent_message_id === queueId);
  const status = () => api.get('/queue', { 'x-phone': phoneId });

  beforeAll(async () => {
    stack = await startStack(
      { SESSION_SCAN_MS: '200', QUEUE_SEND_INTERVAL_MS: '20', QUEUE_SEND_JITTER_MS: '10', QUEUE_PHONE_SCAN_MS: '200' },
      { services: ['phones', 'queue'] },
    );
    const org = await createOrg(stack.prisma);
    token = (await createToken(stack.prisma, org.id)).token;
    api = client(stack.baseUrl, token);
    other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    ({ phoneId } = await connectedSandboxPhone(api));
  }, 120_000);

  afterAll(() => stack?.stop());

  it('answers at once with the job, sends it, and the message shows in GET messages with sent_message_id; acks advance', async () => {
    const sent = await api.post('/message/send', { chat_id: contact, message: 'Your order shipped' }, { 'x-phone': phoneId });
    expect(sent.status).toBe(200);
    expect(SendAnswerSchema.safeParse(sent.body).success).toBe(true);
    expect(sent.body).toMatchObject({ queue_position: '1', unique_id: expect.stringMatching(/^3EB0[0-9A-F]+$/) });
    const m = await sentMessage(sent.body.queue_id);
    expect(m).toMatchObject({
      from_me: true,
      body: 'Your order shipped',
      chat_id: `${contact}@c.us`,
      ack: '1',
      unique_id: sent.body.unique_id,
    });
    const job = await until(
      () => api.get(`/queue/jobs?queue_id=${sent.body.queue_id}`, { 'x-phone': phoneId }),
      (r) => r.body?.[0]?.status === 'completed',
      10_000,
      'job completed',
    );
    expect(job.body[0]).toMatchObject({
      id: sent.body.queue_id,
      unique_id: m.unique_id,
      message_id: m.message_id,
      phone_id: phoneId,
      data: { chat_id: `${contact}@c.us`, body: 'Your order shipped' },
    });
    expect(await api.post('/sandbox/messages/ack', { unique_id: m.unique_id, ack: 3 }, { 'x-phone': phoneId })).toMatchObject({
      status: 200,
    });
    await until(
      () => messagesOf(contact),
      (r) => r.body.messages.find((x: any) => x.sent_message_id === sent.body.queue_id)?.ack === '3',
      10_000,
      'ack 3',
    );
  });

  it('without x-phone, a connected phone that has the chat sends; for an unknown chat it asks for x-phone (400)', async () => {
    const sent = await api.post('/message/send', { chat_id: `${contact}@c.us`, message: 'chosen phone' });
    expect(sent.status).toBe(200);
    expect((await sentMessage(sent.body.queue_id)).body).toBe('chosen phone');
    const unknown = await api.post('/message/send', { chat_id: randomDigits(), message: 'x' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/x-phone/);
  });

  it('Idempotency-Key: a repeat returns the first answer and sends nothing more; another body with the key is 422', async () => {
    const chat = randomDigits();
    const body = { chat_id: chat, message: 'only once' };
    const h = { 'x-phone': phoneId, 'idempotency-key': `k-${randomDigits(6)}` };
    const first = await api.post('/message/send', body, h);
    const again = await api.post('/message/send', body, h);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    await sentMessage(first.body.queue_id, chat);
    await new Promise((r) => setTimeout(r, 500));
    expect((await messagesOf(chat)).body.count).toBe(1);
    const changed = await api.post('/message/send', { ...body, message: 'different' }, h);
    expect(changed.status).toBe(422);
    expect(changed.body.fields['idempotency-key']).toBeDefined();
  });

  it('validates the send body (422 with spec-keyed fields)', async () => {
    const empty = await api.post('/message/send', { chat_id: contact }, { 'x-phone': phoneId });
    expect(empty.status).toBe(422);
    expect(empty.body.fields['body.message']).toBeDefined();
    const badChat = await api.post('/message/send', { chat_id: 'not a chat', message: 'x' }, { 'x-phone': phoneId });
    expect(badChat.status).toBe(422);
    expect(badChat.body.fields['body.chat_id']).toBeDefined();
  });

  it("another organization reaches neither the phone's queue nor its jobs (401)", async () => {
    expect((await other.post('/message/send', { chat_id: contact, message: 'x' }, { 'x-phone': phoneId })).status).toBe(401);
    expect((await other.get('/queue', { 'x-phone': phoneId })).status).toBe(401);
    expect((await other.get('/queue/jobs', { 'x-phone': phoneId })).status).toBe(401);
    expect((await other.post('/message/queues/purge', {}, { 'x-phone': phoneId })).status).toBe(401);
  });

  it('broadcasts with templates; GET /queue/broadcast shows its progress', async () => {
    const chats = [randomDigits(), randomDigits(), randomDigits()];
    const b = await api.post(
      '/message/broadcast',
      { chat_ids: chats, message: 'Hi {{name}}', variables: [{ chat_id: chats[0], values: { name: 'Ana' } }] },
      { 'x-phone': phoneId },
    );
    expect(b.status).toBe(200);
    expect(b.body.jobs.map((j: any) => j.chat_id)).toEqual(chats.map((c) => `${c}@c.us`));
    expect((await sentMessage(b.body.jobs[0].queue_id, chats[0])).body).toBe('Hi Ana');
    expect((await sentMessage(b.body.jobs[1].queue_id, chats[1])).body).toBe('Hi {{name}}');
    const progress = await until(
      () => api.get(`/queue/broadcast?broadcast_id=${b.body.broadcast_id}`, { 'x-phone': phoneId }),
      (r) => r.body?.completed === 3,
      15_000,
      'broadcast done',
    );
    expect(progress.body).toMatchObject({ total: 3, pending: 0, purged: 0, failed: 0 });
    expect((await api.get('/queue/broadcast?broadcast_id=nope', { 'x-phone': phoneId })).status).toBe(404);
  });

  it("purge mode broadcast: the delayed broadcast's jobs go, echoed; nothing of it is sent", async () => {
    const chats = [randomDigits(), randomDigits()];
    const b = await api.post('/message/broadcast', { chat_ids: chats, message: 'later', delay: 30 }, { 'x-phone': phoneId });
    const first = await sentMessage(b.body.jobs[0].queue_id, chats[0]); // the first goes at once; the second waits 30 s
    expect(first).toBeDefined();
    const purged = await api.post('/message/queues/purge', { broadcast_id: b.body.broadcast_id }, { 'x-phone': phoneId });
    expect(purged).toMatchObject({ status: 200, body: { purged: true, mode: 'broadcast', broadcast_id: b.body.broadcast_id } });
    expect(purged.body.queue_ids).toBeUndefined();
    const progress = await api.get(`/queue/broadcast?broadcast_id=${b.body.broadcast_id}`, { 'x-phone': phoneId });
    expect(progress.body).toMatchObject({ total: 2, completed: 1, purged: 1, pending: 0 });
  });

  it('purge modes queue_ids and all (empty body), and the legacy DELETE /queue/purge (204)', async () => {
    const later = new Date(Date.now() + 60_000).toISOString();
    const b = await api.post(
      '/message/broadcast',
      { chat_ids: [randomDigits(), randomDigits(), randomDigits()], message: 'scheduled', scheduled_at: later },
      { 'x-phone': phoneId },
    );
    const [a, c, d] = b.body.jobs.map((j: any) => j.queue_id);
    expect((await status()).body.pending).toBe(3);
    const byIds = await api.post('/message/queues/purge', { queue_ids: [a] }, { 'x-phone': phoneId });
    expect(byIds.body).toEqual({ purged: true, mode: 'queue_ids', queue_ids: [a] });
    expect((await status()).body.pending).toBe(2);
    const legacy = await deleteWithBody(stack.baseUrl, token, '/queue/purge', { queue_id: c }, { 'x-phone': phoneId });
    expect(legacy.status).toBe(204);
    expect((await status()).body.pending).toBe(1);
    const all = await api.post('/message/queues/purge', undefined, { 'x-phone': phoneId });
    expect(all.body).toEqual({ purged: true, mode: 'all' });
    expect((await status()).body).toMatchObject({ pending: 0, is_running: true });
    expect((await api.get(`/queue/jobs?queue_id=${d}`, { 'x-phone': phoneId })).body).toEqual([]);
  });

  it('purge errors: no x-phone with an unscoped token (422), a disconnected phone (400), bad filters (422)', async () => {
    const none = await api.post('/message/queues/purge', {});
    expect(none.status).toBe(422);
    expect(none.body.fields['x-phone']).toBeDefined();
    const both = await api.post(
      '/message/queues/purge',
      { queue_ids: ['8d7d6c70-43a4-4d5e-9f0b-8f3cf2d7a111'], broadcast_id: 'b' },
      { 'x-phone': phoneId },
    );
    expect(both.status).toBe(422);
    const notUuid = await api.post('/message/queues/purge', { queue_ids: ['nope'] }, { 'x-phone': phoneId });
    expect(notUuid.status).toBe(422);
    await api.post('/sandbox/phones/state', { state: 'DISCONNECTED' }, { 'x-phone': phoneId });
    await until(
      () => api.get('/phones', { 'x-phone': phoneId }),
      (r) => r.body?.wa_state === 'DISCONNECTED',
      10_000,
      'disconnected',
    );
    const off = await api.post('/message/queues/purge', {}, { 'x-phone': phoneId });
    expect(off).toMatchObject({ status: 400, body: { code: 'ERROR' } });
    await api.post('/sandbox/phones/state', { state: 'CONNECTED' }, { 'x-phone': phoneId });
    await until(
      () => api.get('/phones', { 'x-phone': phoneId }),
      (r) => r.body?.wa_state === 'CONNECTED',
      10_000,
      'connected',
    );
  });

  it('a token scoped to one phone may purge without x-phone; a phone outside its scope is 401', async () => {
    const scoped = client(
      stack.baseUrl,
      (
        await createToken(stack.prisma, (await stack.prisma.phone.findUniqueOrThrow({ where: { phone_id: phoneId } })).org_id, {
          phoneIds: [phoneId],
        })
      ).token,
    );
    expect((await scoped.post('/message/queues/purge', {})).body).toEqual({ purged: true, mode: 'all' });
    const second = await connectedSandboxPhone(api);
    expect((await scoped.post('/message/queues/purge', {}, { 'x-phone': second.phoneId })).status).toBe(401);
  });

  it('lists jobs by status (GET /queue/jobs and POST /message/queues)', async () => {
    const got = await api.get('/queue/jobs?status=completed&limit=2', { 'x-phone': phoneId });
    expect(got.status).toBe(200);
    expect(got.body).toHaveLength(2);
    expect(got.body.every((j: any) => j.status === 'completed')).toBe(true);
    const posted = await api.post('/message/queues', { status: 'completed', limit: 2 }, { 'x-phone': phoneId });
    expect(posted.body.map((j: any) => j.id)).toEqual(got.body.map((j: any) => j.id));
    expect((await api.get('/queue/jobs?status=bogus', { 'x-phone': phoneId })).status).toBe(422);
  });
});
