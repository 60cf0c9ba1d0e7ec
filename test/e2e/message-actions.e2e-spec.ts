import { randomUUID } from 'node:crypto';
import { MessageSchema } from '@mapi/contracts';
import { createOrg, createToken, randomDigits, registryPayload } from '@mapi/testing';
import { client, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * GET /message/{message_id} and POST /message/{message_id}/edit|delete|react|pin|forward end to end:
 * gateway, chats, queue and phones (sandbox network) as processes. The phone's own actions and
 * another person's (the sandbox control routes) reach GET messages and the outbox events.
 */
describe('message actions', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let scoped: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const contact = randomDigits();
  const chat = `${contact}@c.us`;
  const x = () => ({ 'x-phone': w.phoneId });
  const message = (id: string) => api.get(`/message/${encodeURIComponent(id)}`, x());
  const messageWhere = (id: string, done: (m: any) => boolean, label: string) =>
    until(
      () => message(id),
      (r) => r.status === 200 && done(r.body),
      15_000,
      label,
    ).then((r) => r.body);
  const events = (type: string, messageId: string) =>
    stack.prisma.outboxEvent
      .findMany({ where: { org_id: w.org.id, type }, orderBy: { seq: 'asc' } })
      .then((rows) => rows.filter((r) => (r.payload as any).message_id === messageId));
  const eventsWhere = (type: string, messageId: string, n: number) =>
    until(
      () => events(type, messageId),
      (e) => e.length >= n,
      15_000,
      `${n} ${type}`,
    );
  const inbound = async (body: string) => {
    const res = await api.post('/sandbox/messages', { chat_id: contact, body }, x());
    await messageWhere(res.body.message_id, () => true, 'inbound stored');
    return res.body as { message_id: string; unique_id: string };
  };
  const sent = async (text: string) => {
    const res = await api.post('/message/send', { chat_id: contact, message: text }, x());
    expect(res.status).toBe(200);
    const m = await messageWhere(res.body.queue_id, () => true, 'sent stored');
    return { queue_id: res.body.queue_id as string, message_id: m.message_id as string };
  };

  beforeAll(async () => {
    // QUEUE_PHONE_RETRY_MS: a phone's queue paused by an unreachable phone tries again after 0.5 s, not
    // 5 s, so the send held back below goes out soon after the phone is back (it cannot go while unreachable).
    stack = await startStack(
      {
        SESSION_SCAN_MS: '200',
        QUEUE_SEND_INTERVAL_MS: '20',
        QUEUE_SEND_JITTER_MS: '10',
        QUEUE_PHONE_SCAN_MS: '200',
        QUEUE_PHONE_RETRY_MS: '500',
      },
      { services: ['phones', 'queue'] },
    );
    w.org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id)).token);
    other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    ({ phoneId: w.phoneId, number: w.number } = await connectedSandboxPhone(api));
    ({ phoneId: w.phoneB } = await connectedSandboxPhone(api));
    scoped = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id, { phoneIds: [w.phoneB] })).token);
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  it("GET /message/{id}: by message_id and by queue id, the spec's message object", async () => {
    const a = await inbound('hello there');
    const s = await sent('sent by the queue');
    const byId = await message(a.message_id);
    expect(byId.status).toBe(200);
    expect(MessageSchema.safeParse(byId.body).success).toBe(true);
    expect(byId.body).toMatchObject({ message_id: a.message_id, body: 'hello there', from_me: false, chat_id: chat });
    const byQueue = await message(s.queue_id);
    expect(byQueue.body).toMatchObject({ message_id: s.message_id, sent_message_id: s.queue_id, from_me: true, body: 'sent by the queue' });
    // Without x-phone: any phone of the token's reach.
    expect((await api.get(`/message/${s.queue_id}`)).body.message_id).toBe(s.message_id);
    for (const id of [randomUUID(), `false_${chat}_3EB0UNKNOWN`]) {
      const res = await message(id);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'NOT_FOUND_ERROR', status: 404 });
    }
  });

  it('edit (by queue id): 204, the body changes with prev_body, and message.updated carries the old body', async () => {
    const s = await sent('first draft');
    const res = await api.post(`/message/${s.queue_id}/edit`, { edited_body: 'final text' }, x());
    expect(res.status).toBe(204);
    const m = await messageWhere(s.message_id, (b) => b.body === 'final text', 'edit stored');
    expect(m).toMatchObject({ body: 'final text', prev_body: 'first draft' });
    const [event] = await eventsWhere('message.updated', s.message_id, 1);
    expect(() => registryPayload(event)).not.toThrow();
    expect(event.payload).toMatchObject({ body: 'final text', prev_body: 'first draft' });
    expect(event.previous_attributes).toMatchObject({ body: 'first draft', prev_body: null });
    // The same text again changes nothing.
    expect((await api.post(`/message/${s.message_id}/edit`, { edited_body: 'final text' }, x())).status).toBe(204);
    await new Promise((r) => setTimeout(r, 500));
    expect(await events('message.updated', s.message_id)).toHaveLength(1);
  });

  it('delete: 204, is_deleted true and message.deleted; deleting again changes nothing', async () => {
    const s = await sent('regrettable');
    expect((await api.post(`/message/${s.message_id}/delete`, undefined, x())).status).toBe(204);
    await messageWhere(s.message_id, (b) => b.is_deleted === true, 'deletion stored');
    const [event] = await eventsWhere('message.deleted', s.message_id, 1);
    expect(() => registryPayload(event)).not.toThrow();
    expect((await api.post(`/message/${s.message_id}/delete`, undefined, x())).status).toBe(204);
    await new Promise((r) => setTimeout(r, 500));
    expect(await events('message.deleted', s.message_id)).toHaveLength(1);
  });

  it('react: reaction.created, then reaction.updated on a change; has_reaction and GET /reactions follow', async () => {
    const a = await inbound('react to me');
    expect((await api.post(`/message/${a.message_id}/react`, { reaction: '👍' }, x())).status).toBe(204);
    await messageWhere(a.message_id, (b) => b.has_reaction === true, 'has_reaction');
    const [created] = await eventsWhere('reaction.created', a.message_id, 1);
    expect(() => registryPayload(created)).not.toThrow();
    expect(created.payload).toMatchObject({ reaction: '👍', sender_id: `${w.number}@c.us` });
    expect((await api.post(`/message/${a.message_id}/react`, { reaction: '❤️' }, x())).status).toBe(204);
    const [updated] = await eventsWhere('reaction.updated', a.message_id, 1);
    expect(() => registryPayload(updated)).not.toThrow();
    expect(updated.payload).toMatchObject({ reaction: '❤️' });
    expect(updated.previous_attributes).toMatchObject({ reaction: '👍' });
    const listed = await api.get(`/reactions?message_id=${encodeURIComponent(a.message_id)}`, x());
    expect(listed.body.reactions.map((r: any) => r.reaction)).toEqual(['❤️']);
    // Taking it back: has_reaction false again.
    expect((await api.post(`/message/${a.message_id}/react`, { reaction: '' }, x())).status).toBe(204);
    await messageWhere(a.message_id, (b) => b.has_reaction === false, 'reaction taken back');
  });

  it('forward: a copy in each chat with is_forwarded; an Idempotency-Key retry forwards nothing twice', async () => {
    const a = await inbound('worth sharing');
    const [c1, c2] = [randomDigits(), randomDigits()];
    const h = { ...x(), 'idempotency-key': randomUUID() };
    expect((await api.post(`/message/${a.message_id}/forward`, { forward_chat_ids: [c1, `${c2}@c.us`, c1] }, h)).status).toBe(204);
    expect((await api.post(`/message/${a.message_id}/forward`, { forward_chat_ids: [c1, c2] }, h)).status).toBe(204);
    for (const c of [c1, c2]) {
      const page = await until(
        () => api.get(`/chats/${c}/messages`, x()),
        (r) => r.body?.count >= 1,
        15_000,
        `forward to ${c}`,
      );
      await new Promise((r) => setTimeout(r, 300));
      const again = await api.get(`/chats/${c}/messages`, x());
      expect(again.body.count).toBe(1);
      expect(page.body.messages[0]).toMatchObject({ body: 'worth sharing', is_forwarded: true, from_me: true });
    }
  });

  it("pin: 204; the network's echo shows on GET /chats/{chat_id} (pinned_messages) with message.updated; unpin clears it", async () => {
    const a = await inbound('pin me');
    const pinned = () => api.get(`/chats/${contact}`, x()).then((r) => r.body?.pinned_messages ?? null);
    const before = await message(a.message_id);
    expect((await api.post(`/message/${a.message_id}/pin`, { pin: true }, x())).status).toBe(204);
    const pins = await until(pinned, (p) => Array.isArray(p) && p.some((e: any) => e.message_id === a.message_id), 15_000, 'pin shown');
    const entry = pins.find((e: any) => e.message_id === a.message_id);
    expect(entry.expires_at - entry.pinned_at).toBe(7 * 24 * 3600 * 1000);
    const [event] = await eventsWhere('message.updated', a.message_id, 1);
    expect(Object.keys(event.previous_attributes as object)).toEqual(['updated_at']);
    expect((await message(a.message_id)).body.updated_at > before.body.updated_at).toBe(true);
    expect((await api.post(`/message/${a.message_id}/pin`, { pin: false }, x())).status).toBe(204);
    await until(pinned, (p) => !(p ?? []).some((e: any) => e.message_id === a.message_id), 15_000, 'pin cleared');
    expect(await eventsWhere('message.updated', a.message_id, 2)).toHaveLength(2);
  });

  it('another person edits, deletes and reacts (sandbox control routes): GET messages and the events follow', async () => {
    const a = await inbound('original words');
    expect((await api.post('/sandbox/messages/edit', { unique_id: a.unique_id, body: 'corrected words' }, x())).status).toBe(200);
    await messageWhere(a.message_id, (b) => b.body === 'corrected words' && b.prev_body === 'original words', 'inbound edit');
    const [updated] = await eventsWhere('message.updated', a.message_id, 1);
    expect(updated.previous_attributes).toMatchObject({ body: 'original words' });
    const reacted = await api.post('/sandbox/messages/react', { unique_id: a.unique_id, reaction: '😂' }, x());
    expect(reacted.body).toMatchObject({ message_id: a.message_id, sender_phone: chat });
    const [created] = await eventsWhere('reaction.created', a.message_id, 1);
    expect(created.payload).toMatchObject({ reaction: '😂', sender_id: chat });
    expect((await api.post('/sandbox/messages/delete', { unique_id: a.unique_id }, x())).status).toBe(200);
    await messageWhere(a.message_id, (b) => b.is_deleted === true, 'inbound deletion');
    await eventsWhere('message.deleted', a.message_id, 1);
    const own = await sent('mine');
    const refused = await api.post('/sandbox/messages/edit', { unique_id: (await message(own.message_id)).body.unique_id, body: 'x' }, x());
    expect(refused.status).toBe(422);
    expect(refused.body.fields['body.unique_id']).toBeDefined();
    const unknown = await api.post('/sandbox/messages/react', { unique_id: 'NOPE', reaction: '👍' }, x());
    expect(unknown.status).toBe(422);
    expect(unknown.body.fields['body.unique_id']).toBeDefined();
  });

  it('in a group, a participant reacts (from required, a member, not the phone itself)', async () => {
    const [member, stranger] = [randomDigits(), randomDigits()];
    const group = (await api.post('/sandbox/groups', { subject: 'Team', participants: [member] }, x())).body.chat_id;
    const delivered = await api.post('/sandbox/messages', { chat_id: group, from: member, body: 'group news' }, x());
    await messageWhere(delivered.body.message_id, () => true, 'group message stored');
    for (const [body, field] of [
      [{}, 'body.from'],
      [{ from: stranger }, 'body.from'],
      [{ from: w.number }, 'body.from'],
    ] as const) {
      const res = await api.post('/sandbox/messages/react', { unique_id: delivered.body.unique_id, reaction: '🔥', ...body }, x());
      expect(res.status).toBe(422);
      expect(res.body.fields[field]).toBeDefined();
    }
    expect(
      (await api.post('/sandbox/messages/react', { unique_id: delivered.body.unique_id, reaction: '🔥', from: member }, x())).status,
    ).toBe(200);
    const [created] = await eventsWhere('reaction.created', delivered.body.message_id, 1);
    expect(created.payload).toMatchObject({ reaction: '🔥', sender_id: `${member}@c.us`, chat_id: group });
  });

  describe('bad input (422)', () => {
    let target: { message_id: string };
    let theirs: { message_id: string };
    beforeAll(async () => {
      target = await sent('target');
      theirs = await inbound("not the phone's");
    });
    it.each([
      ['edit without edited_body', 'edit', {}, 'body.edited_body'],
      ['edit with an empty edited_body', 'edit', { edited_body: '' }, 'body.edited_body'],
      ['edit with a number', 'edit', { edited_body: 5 }, 'body.edited_body'],
      ['react without reaction', 'react', {}, 'body.reaction'],
      ['react with a long reaction', 'react', { reaction: 'x'.repeat(33) }, 'body.reaction'],
      ['pin without pin', 'pin', {}, 'body.pin'],
      ['pin with a string', 'pin', { pin: 'yes' }, 'body.pin'],
      ['forward without chats', 'forward', {}, 'body.forward_chat_ids'],
      ['forward to no chat', 'forward', { forward_chat_ids: [] }, 'body.forward_chat_ids'],
      ['forward to a bad chat id', 'forward', { forward_chat_ids: ['+1 555'] }, 'body.forward_chat_ids.0'],
    ])('%s', async (_n, action, body, field) => {
      const res = await api.post(`/message/${target.message_id}/${action}`, body, x());
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
      expect(res.body.fields[field]).toBeDefined();
    });
    it('a message_id that is too long, and actions the message does not allow, name message_id', async () => {
      const long = await api.post(`/message/${'a'.repeat(600)}/delete`, undefined, x());
      expect(long.status).toBe(422);
      for (const [action, body] of [
        ['edit', { edited_body: 'x' }],
        ['delete', undefined],
      ] as const) {
        const res = await api.post(`/message/${theirs.message_id}/${action}`, body, x());
        expect(res.status).toBe(422);
        expect(res.body.fields.message_id.message).toMatch(/sent/);
      }
    });
  });

  describe('reach', () => {
    const actions: [string, unknown][] = [
      ['edit', { edited_body: 'hijacked' }],
      ['delete', undefined],
      ['react', { reaction: '👎' }],
      ['pin', { pin: true }],
      ['forward', { forward_chat_ids: [randomDigits()] }],
    ];
    let target: { message_id: string; queue_id: string };
    beforeAll(async () => {
      target = await sent('stays as it is');
    });
    const unchanged = async () => {
      const m = (await message(target.message_id)).body;
      expect(m).toMatchObject({ body: 'stays as it is', is_deleted: null, has_reaction: null });
      expect(
        await stack.prisma.outboxEvent.count({
          where: {
            org_id: w.org.id,
            type: { in: ['message.updated', 'message.deleted', 'reaction.created'] },
            payload: { path: ['message_id'], equals: target.message_id },
          },
        }),
      ).toBe(0);
    };

    it("another organization's message is 404, as a missing one, and nothing changes", async () => {
      for (const id of [target.message_id, target.queue_id]) {
        expect((await other.get(`/message/${id}`)).status).toBe(404);
        for (const [action, body] of actions) {
          const res = await other.post(`/message/${id}/${action}`, body);
          expect(res.status).toBe(404);
          expect(res.body).toMatchObject({ code: 'NOT_FOUND_ERROR' });
        }
      }
      await new Promise((r) => setTimeout(r, 500));
      await unchanged();
    });

    it('a scoped token outside its phones: 401 with x-phone, 404 without (the message is out of reach)', async () => {
      expect((await scoped.get(`/message/${target.message_id}`, x())).status).toBe(401);
      expect((await scoped.get(`/message/${target.message_id}`)).status).toBe(404);
      for (const [action, body] of actions) {
        expect((await scoped.post(`/message/${target.message_id}/${action}`, body, x())).status).toBe(401);
        expect((await scoped.post(`/message/${target.message_id}/${action}`, body)).status).toBe(404);
      }
      await unchanged();
    });

    it('a disconnected or unreachable phone: 400 ERROR for every action; GET still answers; a queue id not sent yet is 404', async () => {
      for (const state of ['DISCONNECTED', 'UNREACHABLE']) {
        await api.post('/sandbox/phones/state', { state }, x());
        await until(
          () => api.get('/phones', x()),
          (r) => r.body?.wa_state === state,
          10_000,
          state,
        );
        for (const [action, body] of actions) {
          const res = await api.post(`/message/${target.message_id}/${action}`, body, x());
          expect(res.status).toBe(400);
          expect(res.body).toMatchObject({ code: 'ERROR', status: 400 });
        }
        expect((await message(target.message_id)).status).toBe(200);
      }
      const waiting = await api.post('/message/send', { chat_id: contact, message: 'waits for the phone' }, x());
      expect(waiting.status).toBe(200);
      expect((await message(waiting.body.queue_id)).status).toBe(404);
      await api.post('/sandbox/phones/state', { state: 'CONNECTED' }, x());
      await until(
        () => api.get('/phones', x()),
        (r) => r.body?.wa_state === 'CONNECTED',
        10_000,
        'connected',
      );
      await unchanged();
      await messageWhere(waiting.body.queue_id, () => true, 'sent once connected');
    });
  });
});
