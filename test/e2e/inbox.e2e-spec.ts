import { ListNotesResponse, ListTicketsResponse, NoteSchema, TicketInfoSchema } from '@mapi/contracts';
import { createOrg, createToken, randomDigits, registryPayload } from '@mapi/testing';
import { client, expect404, expect422, expectEnvelope, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * The team inbox end to end (issue 17, items 1-3 and 6-7): POST /tickets/create, GET /tickets,
 * GET|PATCH /tickets/{ticket_id}, POST /note/create, GET /note, GET /note/{note_id},
 * GET /chats/{chat_id}/notes — gateway, chats, phones (sandbox network) and inbox as processes.
 */
describe('inbox: tickets and notes', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let scoped: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const [alice, bob] = [randomDigits(), randomDigits()];
  const [chatA, chatB] = [`${alice}@c.us`, `${bob}@c.us`];
  const events = (type: string) => stack.prisma.outboxEvent.findMany({ where: { org_id: w.org.id, type }, orderBy: { seq: 'asc' } });
  const inbound = async (phoneId: string, contact: string, body: string) => {
    const res = await api.post('/sandbox/messages', { chat_id: contact, body }, { 'x-phone': phoneId });
    await until(
      () => api.get(`/message/${encodeURIComponent(res.body.message_id)}`, { 'x-phone': phoneId }),
      (r) => r.status === 200,
      15_000,
      'inbound stored',
    );
    return res.body.message_id as string;
  };

  beforeAll(async () => {
    stack = await startStack({ SESSION_SCAN_MS: '200' }, { services: ['phones', 'inbox'] });
    w.org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id)).token);
    other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    ({ phoneId: w.p1 } = await connectedSandboxPhone(api));
    ({ phoneId: w.p2 } = await connectedSandboxPhone(api));
    scoped = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id, { phoneIds: [w.p1] })).token);
    w.m1 = await inbound(w.p1, alice, 'my order never came');
    w.mB = await inbound(w.p2, bob, 'hello from bob');
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  describe('POST /tickets/create', () => {
    it('raises a ticket quoting a message: TicketInfoType, the message attached, ticket.created and message.ticket.attached written', async () => {
      const res = await api.post('/tickets/create', {
        chat_id: alice,
        subject: 'Missing order',
        quoted_message_id: w.m1,
        priority: 3,
        labels: 'Orders, VIP',
        assignee: 'Amy@Example.com',
        due_date: '2026-12-01 18:29:59+00',
      });
      expect(res.status).toBe(200);
      expect(TicketInfoSchema.safeParse(res.body).success).toBe(true);
      expect(res.body.ticket).toMatchObject({
        chat_id: chatA,
        subject: 'Missing order',
        status: 'open',
        priority: 3,
        ticket_labels: 'orders,vip',
        assignee: 'amy@example.com',
        due_date: '2026-12-01T18:29:59.000Z',
        quoted_message_id: w.m1,
        org_id: w.org.id,
      });
      expect(res.body.chat).toMatchObject({ chat_id: chatA, phone_id: w.p1 });
      expect(res.body.message).toMatchObject({ message_id: w.m1, body: 'my order never came', chat_id: chatA });
      expect(res.body.attached_messages.map((m: any) => m.message_id)).toEqual([w.m1]);
      w.t1 = res.body.ticket.ticket_id;
      const message = await api.get(`/message/${encodeURIComponent(w.m1)}`);
      expect(message.body.message_ticket_id).toBe(w.t1);
      const [created] = await events('ticket.created');
      expect(registryPayload(created)).toMatchObject({ ticket_id: w.t1, quoted_message: { message_id: w.m1 }, chat: { chat_id: chatA } });
      const [attached] = await events('message.ticket.attached');
      expect(registryPayload(attached)).toMatchObject({ message_id: w.m1, message_ticket_id: w.t1 });
      expect(attached.previous_attributes).toEqual({ message_ticket_id: null });
    });

    it('defaults priority 1 and status open; the ticket belongs to the x-phone phone', async () => {
      const res = await api.post('/tickets/create', { chat_id: chatB, subject: 'Say hi' }, { 'x-phone': w.p2 });
      expect(res.status).toBe(200);
      expect(res.body.ticket).toMatchObject({ status: 'open', priority: 1, assignee: null, ticket_labels: '', quoted_message_id: null });
      expect(res.body).toMatchObject({ message: null, attached_messages: [], chat: { phone_id: w.p2 } });
      w.t2 = res.body.ticket.ticket_id;
    });

    it.each([
      [{ subject: 'x' }, 'body.chat_id'],
      [{ chat_id: 'not a chat', subject: 'x' }, 'body.chat_id'],
      [{ chat_id: alice }, 'body.subject'],
      [{ chat_id: alice, subject: '  ' }, 'body.subject'],
      [{ chat_id: alice, subject: 'x', priority: 5 }, 'body.priority'],
      [{ chat_id: alice, subject: 'x', priority: 0 }, 'body.priority'],
      [{ chat_id: alice, subject: 'x', status: 'done' }, 'body.status'],
      [{ chat_id: alice, subject: 'x', assignee: 'amy' }, 'body.assignee'],
      [{ chat_id: alice, subject: 'x', due_date: 'tomorrow' }, 'body.due_date'],
      [{ chat_id: alice, subject: 'x', labels: 42 }, 'body.labels'],
      [{ chat_id: alice, subject: 'x', quoted_message_id: 'false_1@c.us_NOPE' }, 'body.quoted_message_id'],
    ])('422 for %j on %s, and nothing is created', async (body, field) => {
      const before = await stack.prisma.inboxTicket.count();
      expect422(await api.post('/tickets/create', body), field);
      expect(await stack.prisma.inboxTicket.count()).toBe(before);
    });

    it('an Idempotency-Key makes a repeat answer the same ticket; another request under the key is 422', async () => {
      const key = { 'idempotency-key': `retry-${randomDigits()}` };
      const first = await api.post('/tickets/create', { chat_id: chatB, subject: 'Retried' }, { 'x-phone': w.p2, ...key });
      const again = await api.post('/tickets/create', { chat_id: chatB, subject: 'Retried' }, { 'x-phone': w.p2, ...key });
      expect([first.status, again.status]).toEqual([200, 200]);
      expect(again.body.ticket.ticket_id).toBe(first.body.ticket.ticket_id);
      expect422(await api.post('/tickets/create', { chat_id: chatB, subject: 'Changed' }, { 'x-phone': w.p2, ...key }), 'idempotency-key');
      expect((await events('ticket.created')).filter((e) => (e.payload as any).ticket_id === first.body.ticket.ticket_id)).toHaveLength(1);
      expect((await api.delete(`/tickets/${first.body.ticket.ticket_id}`)).status).toBe(204);
    });

    it('422 for a quoted message of another chat', async () => {
      expect422(await api.post('/tickets/create', { chat_id: alice, subject: 'x', quoted_message_id: w.mB }), 'body.quoted_message_id');
    });

    it("another organization's chat and message: 404, nothing created or attached", async () => {
      const before = await stack.prisma.inboxTicket.count();
      expect404(await other.post('/tickets/create', { chat_id: alice, subject: 'theirs', quoted_message_id: w.m1 }));
      expect(await stack.prisma.inboxTicket.count()).toBe(before);
      expect((await api.get(`/message/${encodeURIComponent(w.m1)}`)).body.message_ticket_id).toBe(w.t1);
    });

    it('a scoped token: 401 for x-phone outside its phones, 404 for a chat only its other phones have', async () => {
      const res = await scoped.post('/tickets/create', { chat_id: bob, subject: 'x' }, { 'x-phone': w.p2 });
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
      expect404(await scoped.post('/tickets/create', { chat_id: bob, subject: 'x' }));
    });
  });

  describe('GET /tickets', () => {
    it("lists the organization's tickets newest first, filtered by status, assignee, chat and label, paged", async () => {
      const res = await api.get('/tickets');
      expect(res.status).toBe(200);
      expect(ListTicketsResponse.safeParse(res.body).success).toBe(true);
      expect(res.body).toMatchObject({ from: 1, to: 2, count: 2 });
      expect(res.body.tickets.map((t: any) => t.ticket_id)).toEqual([w.t2, w.t1]);
      const ids = async (q: string) => (await api.get(`/tickets?${q}`)).body.tickets.map((t: any) => t.ticket_id);
      expect(await ids('assignee=amy@example.com')).toEqual([w.t1]);
      expect(await ids('status=open&assignee=amy@example.com')).toEqual([w.t1]);
      expect(await ids('status=closed')).toEqual([]);
      expect(await ids(`chat_id=${bob}`)).toEqual([w.t2]);
      expect(await ids('label=VIP')).toEqual([w.t1]);
      expect((await api.get('/tickets?offset=1&limit=1')).body).toMatchObject({ from: 2, to: 2, count: 1, tickets: [{ ticket_id: w.t1 }] });
    });

    it("narrows to the x-phone phone and a scoped token's phones; another organization sees none", async () => {
      expect((await api.get('/tickets', { 'x-phone': w.p2 })).body.tickets.map((t: any) => t.ticket_id)).toEqual([w.t2]);
      expect((await scoped.get('/tickets')).body.tickets.map((t: any) => t.ticket_id)).toEqual([w.t1]);
      expect((await other.get('/tickets')).body).toEqual({ from: 0, to: 0, count: 0, tickets: [] });
      expect((await scoped.get('/tickets', { 'x-phone': w.p2 })).status).toBe(401);
    });

    it.each([
      ['limit=2001', 'limit'],
      ['offset=-1', 'offset'],
      ['status=done', 'status'],
      ['assignee=nobody', 'assignee'],
      ['chat_id=xyz', 'chat_id'],
      ['label=', 'label'],
    ])('422 for %s', async (q, field) => {
      expect422(await api.get(`/tickets?${q}`), field);
    });
  });

  describe('GET /tickets/{ticket_id}', () => {
    it('answers the ticket with its chat, quoted and attached messages', async () => {
      const res = await api.get(`/tickets/${w.t1}`);
      expect(res.status).toBe(200);
      expect(TicketInfoSchema.safeParse(res.body).success).toBe(true);
      expect(res.body).toMatchObject({
        ticket: { ticket_id: w.t1 },
        message: { message_id: w.m1 },
        attached_messages: [{ message_id: w.m1 }],
        chat: { chat_id: chatA },
      });
    });

    it("404 for another organization, a scoped token outside the ticket's phone and a missing id; 422 for a malformed id", async () => {
      expect404(await other.get(`/tickets/${w.t1}`));
      expect404(await scoped.get(`/tickets/${w.t2}`));
      expect404(await api.get('/tickets/6f1c1b1e-0000-4000-8000-000000000000'));
      expect422(await api.get('/tickets/not-a-uuid'), 'ticket_id');
      expect((await scoped.get(`/tickets/${w.t1}`, { 'x-phone': w.p2 })).status).toBe(401);
    });
  });

  describe('PATCH /tickets/{ticket_id}', () => {
    it('changes the given fields, writes ticket.updated with previous_attributes', async () => {
      const res = await api.patch(`/tickets/${w.t1}`, {
        status: 'closed',
        priority: '4',
        labels: 'orders',
        assignee: 'bo@example.com',
        subject: 'Order lost',
      });
      expect(res.status).toBe(200);
      expect(res.body.ticket).toMatchObject({
        status: 'closed',
        priority: 4,
        ticket_labels: 'orders',
        assignee: 'bo@example.com',
        subject: 'Order lost',
      });
      expect(res.body.ticket.closed_at).not.toBeNull();
      const [updated] = await events('ticket.updated');
      expect(registryPayload(updated)).toMatchObject({ ticket_id: w.t1, status: 'closed', priority: 4, label_ids: { orders: true } });
      expect(updated.previous_attributes).toMatchObject({
        status: 'open',
        priority: 3,
        assignee: 'amy@example.com',
        subject: 'Missing order',
        label_ids: { orders: true, vip: true },
      });
      expect((await api.get(`/tickets/${w.t1}`)).body.ticket.status).toBe('closed');
      const cleared = await api.patch(`/tickets/${w.t1}`, { assignee: null, due_date: '', status: 'open' });
      expect(cleared.body.ticket).toMatchObject({ assignee: null, due_date: null, status: 'open', closed_at: null });
    });

    it.each([
      [{ priority: 9 }, 'body.priority'],
      [{ status: 'gone' }, 'body.status'],
      [{ assignee: 'x' }, 'body.assignee'],
      [{ due_date: 'never' }, 'body.due_date'],
      [{ subject: '' }, 'body.subject'],
    ])('422 for %j', async (body, field) => {
      expect422(await api.patch(`/tickets/${w.t2}`, body), field);
    });

    it("another organization's ticket, or one outside a scoped token's phones: 404 and unchanged", async () => {
      const before = await stack.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: w.t2 } });
      expect404(await other.patch(`/tickets/${w.t2}`, { subject: 'hijacked' }));
      expect404(await scoped.patch(`/tickets/${w.t2}`, { subject: 'hijacked' }));
      expect(await stack.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: w.t2 } })).toEqual(before);
      expect((await scoped.patch(`/tickets/${w.t2}`, { subject: 'x' }, { 'x-phone': w.p2 })).status).toBe(401);
    });
  });

  describe('DELETE /tickets/{ticket_id}', () => {
    it("204 once with ticket.deleted; then gone from GET and the listing; out of reach or another organization's: 404 and unchanged", async () => {
      const id = (await api.post('/tickets/create', { chat_id: chatB, subject: 'Spam' }, { 'x-phone': w.p2 })).body.ticket.ticket_id;
      expect404(await other.delete(`/tickets/${id}`));
      expect404(await scoped.delete(`/tickets/${id}`));
      expect((await scoped.delete(`/tickets/${id}`, { 'x-phone': w.p2 })).status).toBe(401);
      expect422(await api.delete('/tickets/not-a-uuid'), 'ticket_id');
      expect((await api.get(`/tickets/${id}`)).status).toBe(200);
      expect((await api.delete(`/tickets/${id}`)).status).toBe(204);
      expect404(await api.get(`/tickets/${id}`));
      expect((await api.get('/tickets')).body.tickets.map((x: any) => x.ticket_id)).not.toContain(id);
      expect404(await api.delete(`/tickets/${id}`));
      const deleted = (await events('ticket.deleted')).filter((e) => (e.payload as any).ticket_id === id);
      expect(deleted).toHaveLength(1);
      expect(registryPayload(deleted[0])).toMatchObject({ ticket_id: id, is_deleted: true, subject: 'Spam' });
    });
  });

  describe('notes', () => {
    it('POST /note/create keeps a private note, sends nothing to the network, writes note.created', async () => {
      const messagesBefore = (await api.get(`/chats/${alice}/messages`)).body.count;
      const res = await api.post('/note/create', { chat_id: alice, message: 'Called the courier', reply_to: w.m1 });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        data: { chat_id: chatA, body: 'Called the courier', is_private_note: true, quoted_message_id: w.m1, org_id: w.org.id },
      });
      expect(NoteSchema.safeParse(res.body.data).success).toBe(true);
      w.n1 = res.body.data.message_id;
      const [created] = await events('note.created');
      expect(registryPayload(created)).toEqual(res.body.data);
      w.n2 = (await api.post('/note/create', { chat_id: bob, message: 'VIP customer' })).body.data.message_id;
      await new Promise((r) => setTimeout(r, 500)); // a note that reached the phone's session would be stored by now
      expect((await api.get(`/chats/${alice}/messages`)).body.count).toBe(messagesBefore);
    });

    it.each([
      [{ message: 'x' }, 'body.chat_id'],
      [{ chat_id: alice }, 'body.message'],
      [{ chat_id: alice, message: '' }, 'body.message'],
      [
        {
          chat_id: alice,
          message: 'x',
          media: { type: 'image', url: 'https://example.com/a.png', filename: 'a.png', mimetype: 'image/png' },
        },
        'body.media',
      ],
      [{ chat_id: alice, message: 'x', reply_to: w.mB ?? 'false_1@c.us_NOPE' }, 'body.reply_to'],
    ])('POST /note/create: 422 for %j', async (body, field) => {
      expect422(await api.post('/note/create', body), field);
    });

    it("POST /note/create: another organization's chat 404; x-phone outside a scoped token 401", async () => {
      expect404(await other.post('/note/create', { chat_id: alice, message: 'theirs' }));
      expect((await scoped.post('/note/create', { chat_id: bob, message: 'x' }, { 'x-phone': w.p2 })).status).toBe(401);
      expect404(await scoped.post('/note/create', { chat_id: bob, message: 'x' }));
    });

    it('GET /note, GET /note/{note_id}, GET /chats/{chat_id}/notes: in reach and in the organization only', async () => {
      const all = await api.get('/note');
      expect(all.status).toBe(200);
      expect(ListNotesResponse.safeParse(all.body).success).toBe(true);
      expect(all.body).toMatchObject({ from: 1, to: 2, count: 2, start_time: null, end_time: null });
      expect(all.body.notes.map((n: any) => n.message_id)).toEqual([w.n2, w.n1]);
      expect((await scoped.get('/note')).body.notes.map((n: any) => n.message_id)).toEqual([w.n1]);
      expect((await other.get('/note')).body.notes).toEqual([]);
      expect((await api.get('/note?start_time=2999-01-01')).body.notes).toEqual([]);
      expect((await api.get(`/note/${w.n1}`)).body).toMatchObject({ message_id: w.n1, body: 'Called the courier' });
      expect404(await other.get(`/note/${w.n1}`));
      expect404(await scoped.get(`/note/${w.n2}`));
      expect404(await api.get('/note/missing'));
      expect((await api.get(`/chats/${alice}/notes`)).body.notes.map((n: any) => n.message_id)).toEqual([w.n1]);
      expect((await other.get(`/chats/${alice}/notes`)).body.notes).toEqual([]);
      expect((await scoped.get(`/chats/${bob}/notes`)).body.notes).toEqual([]);
      expect((await scoped.get('/note', { 'x-phone': w.p2 })).status).toBe(401);
      expect422(await api.get('/note?limit=2001'), 'limit');
      expect422(await api.get('/note?start_time=2025-02-02&end_time=2025-02-01'), 'end_time');
      expect422(await api.get('/chats/nope/notes'), 'chat_id');
    });
  });
});
