import { Errors, ServiceError, type ChatView, type RequestContext } from '@mapi/contracts';
import { createOrg, newUuid, randomDigits, registryPayload, useTestDatabase } from '@mapi/testing';
import { phonesInReach, type ChatLookup } from './chat-lookup';
import type { MessageAttacher } from './message-attacher';
import { CustomPropertyRepository } from './repositories/custom-property-repository';
import { NoteRepository } from './repositories/note-repository';
import { TicketRepository, reviveTicket } from './repositories/ticket-repository';
import { CreateNote } from './usecases/create-note/create-note.usecase';
import { CreateTicket } from './usecases/create-ticket/create-ticket.usecase';
import { DeleteCustomProperty } from './usecases/delete-custom-property/delete-custom-property.usecase';
import { DeleteTicket } from './usecases/delete-ticket/delete-ticket.usecase';
import { GetNote } from './usecases/get-note/get-note.usecase';
import { GetTicket } from './usecases/get-ticket/get-ticket.usecase';
import { ListChatNotes } from './usecases/list-chat-notes/list-chat-notes.usecase';
import { ListNotes } from './usecases/list-notes/list-notes.usecase';
import { ListTickets } from './usecases/list-tickets/list-tickets.usecase';
import { UpdateTicket } from './usecases/update-ticket/update-ticket.usecase';
import { noReach } from './testing/no-reach';

/**
 * The inbox's use cases and repositories against Postgres. The chats service (another process) is
 * the boundary here: its chat lookup is an in-memory table of chats per phone with GET /chats/{chat_id}'s
 * rule (a chat no phone in reach has is 404); test/e2e/inbox.e2e-spec.ts runs the real one.
 */
describe('inbox (integration)', () => {
  const t = useTestDatabase('inbox');
  const w: Record<string, any> = {};
  const views: ChatView[] = [];
  const chats: ChatLookup = {
    chat: async (ctx, chatId) => {
      const reach = phonesInReach(ctx);
      const view = views.find((v) => v.org_id === ctx.org_id && v.chat_id === chatId && (!reach || reach.includes(v.phone_id)));
      if (!view) throw Errors.notFound('Chat not found');
      return view;
    },
    message: async () => null,
  };
  const attacher: MessageAttacher = {
    attach: async () => {
      throw new Error('no message is quoted in these tests');
    },
  };
  const tickets = () => new TicketRepository(t.prisma);
  const notes = () => new NoteRepository(t.prisma);
  const ctx = (org: string, scope: string[] | null = null, phone: string | null = null): RequestContext => ({
    org_id: org,
    token_id: w.token,
    phone_scope: scope,
    phone: phone ? { phone_id: phone, org_phone: null } : null,
  });
  const view = (org: string, phone: string, chatId: string) =>
    ({
      chat_id: chatId,
      org_id: org,
      phone_id: phone,
      org_phone: `${phone.slice(-6)}@c.us`,
      label_ids: {},
      message_unread_count: 0,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    }) as unknown as ChatView;
  const create = (c: RequestContext, body: Record<string, unknown>) =>
    new CreateTicket(tickets(), chats, attacher, new CustomPropertyRepository(t.prisma)).execute({ ctx: c, body: body as any });
  const list = (c: RequestContext, query: Record<string, unknown> = {}) =>
    new ListTickets(tickets(), noReach, new CustomPropertyRepository(t.prisma)).execute({
      ctx: c,
      query: { offset: 0, limit: 2000, ...query },
    });
  const update = (c: RequestContext, id: string, body: Record<string, unknown>) =>
    new UpdateTicket(tickets(), chats, noReach, new CustomPropertyRepository(t.prisma)).execute({
      ctx: c,
      params: { ticket_id: id },
      body,
    });
  const events = (org: string, type: string) => t.prisma.outboxEvent.findMany({ where: { org_id: org, type }, orderBy: { seq: 'asc' } });
  const status = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ServiceError);
    return (err as ServiceError).status;
  };

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    w.token = newUuid();
    [w.p1, w.p2, w.q1] = ['phone-aaaaaaaaaaaa1', 'phone-aaaaaaaaaaaa2', 'phone-bbbbbbbbbbbb1'];
    [w.a, w.b] = [`${randomDigits()}@c.us`, `${randomDigits()}@c.us`];
    views.push(view(w.org, w.p1, w.a), view(w.org, w.p2, w.b), view(w.other, w.q1, w.a));
  });

  it("creates a ticket on a chat in reach, with its defaults, and writes ticket.created with the registry's payload", async () => {
    const info = await create(ctx(w.org), { chat_id: w.a, subject: 'Refund' });
    expect(info.ticket).toMatchObject({
      chat_id: w.a,
      org_id: w.org,
      subject: 'Refund',
      status: 'open',
      priority: 1,
      assignee: null,
      ticket_labels: '',
      raised_by: w.token,
      closed_at: null,
    });
    expect(info).toMatchObject({ message: null, attached_messages: [], chat: { chat_id: w.a, phone_id: w.p1 } });
    const [event] = await events(w.org, 'ticket.created');
    expect(registryPayload(event)).toMatchObject({
      ticket_id: info.ticket.ticket_id,
      status: 'open',
      label_ids: {},
      is_deleted: false,
      chat: { chat_id: w.a, phone_id: w.p1 },
    });
    expect(event.phone_id).toBe(w.p1);
    w.t1 = info.ticket.ticket_id;
  });

  it('keeps priority, status, labels, assignee and due date as given; closed at creation sets closed_at', async () => {
    const info = await create(ctx(w.org), {
      chat_id: w.b,
      subject: 'Broken',
      priority: 4,
      status: 'closed',
      labels: ['vip', 'billing'],
      assignee: 'amy@example.com',
      due_date: '2026-01-02T03:04:05.000Z',
    });
    expect(info.ticket).toMatchObject({
      priority: 4,
      status: 'closed',
      ticket_labels: 'vip,billing',
      assignee: 'amy@example.com',
      assigned_by: w.token,
      due_date: '2026-01-02T03:04:05.000Z',
    });
    expect(info.ticket.closed_at).not.toBeNull();
    expect(info.ticket.first_assigned_at).not.toBeNull();
    w.t2 = info.ticket.ticket_id;
  });

  it("refuses a chat out of reach or another organization's with 404 and writes nothing", async () => {
    const before = await t.prisma.inboxTicket.count();
    expect(await status(create(ctx(w.org, [w.p2]), { chat_id: w.a, subject: 'x' }))).toBe(404);
    expect(await status(create(ctx(w.org, null, w.p2), { chat_id: w.a, subject: 'x' }))).toBe(404);
    expect(await status(create(ctx(w.other), { chat_id: w.b, subject: 'x' }))).toBe(404);
    expect(await t.prisma.inboxTicket.count()).toBe(before);
  });

  it('lists newest first, filtered by status, assignee, chat and label, narrowed to the phones in reach and the organization', async () => {
    const theirs = await create(ctx(w.other), { chat_id: w.a, subject: 'Theirs' });
    const ids = (r: { tickets: { ticket_id: string }[] }) => r.tickets.map((x) => x.ticket_id);
    expect(ids(await list(ctx(w.org)))).toEqual([w.t2, w.t1]);
    expect(await list(ctx(w.org), { offset: 1, limit: 1 })).toMatchObject({ from: 2, to: 2, count: 1 });
    expect(ids(await list(ctx(w.org), { offset: 0, limit: 1 }))).toEqual([w.t2]);
    expect(ids(await list(ctx(w.org), { offset: 1, limit: 1 }))).toEqual([w.t1]);
    expect(ids(await list(ctx(w.org), { offset: 2, limit: 1 }))).toEqual([]);
    expect(ids(await list(ctx(w.org), { status: 'closed' }))).toEqual([w.t2]);
    expect(ids(await list(ctx(w.org), { assignee: 'amy@example.com' }))).toEqual([w.t2]);
    expect(ids(await list(ctx(w.org), { chat_id: w.a }))).toEqual([w.t1]);
    expect(ids(await list(ctx(w.org), { label: 'vip' }))).toEqual([w.t2]);
    expect(ids(await list(ctx(w.org), { label: 'none' }))).toEqual([]);
    expect(ids(await list(ctx(w.org, [w.p1])))).toEqual([w.t1]);
    expect(ids(await list(ctx(w.org, null, w.p2)))).toEqual([w.t2]);
    expect(ids(await list(ctx(w.org, [])))).toEqual([]);
    expect(ids(await list(ctx(w.other)))).toEqual([theirs.ticket.ticket_id]);
    for (const x of (await list(ctx(w.org))).tickets) expect(registryPayload({ type: 'ticket.created', payload: x })).toBeTruthy();
  });

  it("reads the listing's rows (one JSON text each) exactly as Prisma reads them, column for column", async () => {
    const due = new Date('2026-12-01T18:29:59.123Z');
    const made = await create(ctx(w.other), {
      chat_id: w.a,
      subject: 'Columns',
      priority: 4,
      labels: ['alpha', 'beta'],
      assignee: 'zed@example.com',
      due_date: due.toISOString(),
      status: 'closed',
    });
    const raw = (await tickets().listJson(w.other, null, {}, 0, 2000)).map(reviveTicket);
    const prisma = await t.prisma.inboxTicket.findMany({
      where: { org_id: w.other, is_deleted: false },
      orderBy: [{ created_at: 'desc' }, { ticket_id: 'desc' }],
    });
    expect(raw.length).toBeGreaterThanOrEqual(2);
    expect(raw).toEqual(prisma);
    expect(raw.find((r) => r.ticket_id === made.ticket.ticket_id)).toMatchObject({
      due_date: due,
      labels: ['alpha', 'beta'],
      closed_at: expect.any(Date),
    });
  });

  it("reads one ticket in reach; out of reach, missing and another organization's are 404", async () => {
    const get = (c: RequestContext, id: string) => new GetTicket(tickets(), chats, noReach).execute({ ctx: c, params: { ticket_id: id } });
    expect((await get(ctx(w.org), w.t1)).ticket).toMatchObject({ ticket_id: w.t1, subject: 'Refund' });
    expect((await get(ctx(w.org, [w.p1]), w.t1)).chat.chat_id).toBe(w.a);
    expect(await status(get(ctx(w.org, [w.p2]), w.t1))).toBe(404);
    expect(await status(get(ctx(w.other), w.t1))).toBe(404);
    expect(await status(get(ctx(w.org), newUuid()))).toBe(404);
  });

  it('updates only what changes, with ticket.updated and previous_attributes; closing and reopening; a change of nothing writes nothing', async () => {
    const done = await update(ctx(w.org), w.t1, {
      status: 'closed',
      priority: 3,
      labels: ['a'],
      assignee: 'bo@example.com',
      subject: 'Refund!',
    });
    expect(done.ticket).toMatchObject({
      status: 'closed',
      priority: 3,
      ticket_labels: 'a',
      assignee: 'bo@example.com',
      closed_by: w.token,
      subject: 'Refund!',
    });
    const [event] = await events(w.org, 'ticket.updated');
    expect(registryPayload(event)).toMatchObject({ ticket_id: w.t1, status: 'closed', priority: 3 });
    expect(event.previous_attributes).toMatchObject({
      status: 'open',
      priority: 1,
      label_ids: {},
      assignee: null,
      subject: 'Refund',
      closed_at: null,
    });
    const reopened = await update(ctx(w.org), w.t1, { status: 'inprogress', assignee: null, due_date: null });
    expect(reopened.ticket).toMatchObject({ status: 'inprogress', closed_at: null, closed_by: null, assignee: null });
    expect(reopened.ticket.first_assigned_at).not.toBeNull();
    const count = (await events(w.org, 'ticket.updated')).length;
    expect((await update(ctx(w.org), w.t1, { status: 'inprogress', priority: 3 })).ticket.status).toBe('inprogress');
    expect((await events(w.org, 'ticket.updated')).length).toBe(count);
  });

  it('does not change a ticket out of reach or of another organization (404)', async () => {
    const before = await t.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: w.t2 } });
    expect(await status(update(ctx(w.other), w.t2, { subject: 'hijack' }))).toBe(404);
    expect(await status(update(ctx(w.org, [w.p1]), w.t2, { subject: 'hijack' }))).toBe(404);
    expect(await t.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: w.t2 } })).toEqual(before);
  });

  describe('ticket custom properties', () => {
    const define = async (org: string, name: string, type: string, extra: Record<string, unknown> = {}) =>
      (await t.prisma.inboxCustomProperty.create({ data: { property_id: newUuid(), org_id: org, property_name: name, type, ...extra } }))
        .property_id;
    const fields = async (p: Promise<unknown>) => {
      const err = await p.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).status).toBe(422);
      return Object.keys((err as ServiceError).fields ?? {}).sort();
    };

    beforeAll(async () => {
      w.severity = await define(w.org, 'Severity', 'ticket', {
        property_value_type: 'dropdown',
        property_value: ['Low', 'High'],
        is_required: true,
      });
      w.amount = await define(w.org, 'Refund amount', 'ticket', { property_value_type: 'number' });
      w.chatTier = await define(w.org, 'Tier', 'chat');
      w.theirs = await define(w.other, 'Severity', 'ticket');
    });

    it('sets values by name (any case) or id, kept by id and shown on the ticket, with ticket.updated and previous_attributes', async () => {
      const done = await update(ctx(w.org), w.t1, { custom_properties: { severity: 'high', [w.amount]: '12.50' } });
      expect(done.ticket.ticket_custom_properties).toEqual({ [w.severity]: 'High', [w.amount]: '12.50' });
      const last = (await events(w.org, 'ticket.updated')).at(-1) as NonNullable<Awaited<ReturnType<typeof events>>[number]>;
      expect(registryPayload(last)).toMatchObject({ ticket_id: w.t1, custom_properties: { [w.severity]: 'High', [w.amount]: '12.50' } });
      expect(last.previous_attributes).toEqual({ custom_properties: {}, last_updated_at: expect.any(String) });
      expect((await list(ctx(w.org), { chat_id: w.a })).tickets.find((x) => x.ticket_id === w.t1)?.custom_properties).toEqual({
        [w.severity]: 'High',
        [w.amount]: '12.50',
      });
    });

    it('merges: null clears an optional value, others are kept; the same values again write no event', async () => {
      const done = await update(ctx(w.org), w.t1, { custom_properties: { 'REFUND AMOUNT': null } });
      expect(done.ticket.ticket_custom_properties).toEqual({ [w.severity]: 'High' });
      expect((await events(w.org, 'ticket.updated')).at(-1)?.previous_attributes).toMatchObject({
        custom_properties: { [w.severity]: 'High', [w.amount]: '12.50' },
      });
      const count = (await events(w.org, 'ticket.updated')).length;
      await update(ctx(w.org), w.t1, { custom_properties: { Severity: 'HIGH' } });
      expect((await events(w.org, 'ticket.updated')).length).toBe(count);
    });

    it("422 per key for an unknown property, a chat property, another organization's, a wrong value, clearing a required one; nothing changes", async () => {
      const before = await t.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: w.t1 } });
      expect(
        await fields(
          update(ctx(w.org), w.t1, {
            subject: 'changed',
            custom_properties: { nope: 'x', tier: 'gold', [w.theirs]: 'x', severity: 'Medium', [w.amount]: 'lots' },
          }),
        ),
      ).toEqual(
        [
          'body.custom_properties.nope',
          'body.custom_properties.severity',
          'body.custom_properties.tier',
          `body.custom_properties.${w.amount}`,
          `body.custom_properties.${w.theirs}`,
        ].sort(),
      );
      expect(await fields(update(ctx(w.org), w.t1, { custom_properties: { severity: '' } }))).toEqual(['body.custom_properties.severity']);
      expect(await t.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: w.t1 } })).toEqual(before);
    });

    it('another organization, or a ticket out of reach, is 404 and its values do not change', async () => {
      expect(await status(update(ctx(w.other), w.t1, { custom_properties: { [w.theirs]: 'mine' } }))).toBe(404);
      expect(await status(update(ctx(w.org, [w.p2]), w.t1, { custom_properties: { severity: 'low' } }))).toBe(404);
      expect((await t.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: w.t1 } })).custom_properties).toEqual({
        [w.severity]: 'High',
      });
    });

    it('POST /tickets/create takes values too, checked the same way (422 before anything is written), in ticket.created', async () => {
      const made = await create(ctx(w.org), {
        chat_id: w.a,
        subject: 'With values',
        custom_properties: { severity: 'low', 'refund amount': null },
      });
      expect(made.ticket.ticket_custom_properties).toEqual({ [w.severity]: 'Low' });
      const created = (await events(w.org, 'ticket.created')).find(
        (e) => (e.payload as { ticket_id: string }).ticket_id === made.ticket.ticket_id,
      );
      expect(created && registryPayload(created)).toMatchObject({ custom_properties: { [w.severity]: 'Low' } });
      const count = await t.prisma.inboxTicket.count();
      expect(
        await fields(create(ctx(w.org), { chat_id: w.a, subject: 'Bad', custom_properties: { severity: 'Huge', tier: 'x' } })),
      ).toEqual(['body.custom_properties.severity', 'body.custom_properties.tier']);
      expect(await t.prisma.inboxTicket.count()).toBe(count);
    });

    it("deleting a ticket property removes its values from the organization's tickets with it", async () => {
      const temp = await define(w.org, 'Temp', 'ticket');
      await update(ctx(w.org), w.t1, { custom_properties: { temp: 'x' } });
      const chatProps = {
        missing: async () => [],
        set: async () => 0,
        drop: async () => {
          throw new Error("a ticket property is not the chats service's");
        },
        renameLabel: async () => 0,
        dropLabel: async () => 0,
      };
      await new DeleteCustomProperty(new CustomPropertyRepository(t.prisma), chatProps).execute({
        ctx: ctx(w.org),
        params: { property_id: temp },
      });
      expect((await t.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: w.t1 } })).custom_properties).toEqual({
        [w.severity]: 'High',
      });
    });
  });

  it('concurrent updates of one ticket each write their event, the last one wins, none is lost', async () => {
    await Promise.all([1, 2, 3, 4].map((p) => update(ctx(w.org), w.t2, { priority: p })));
    const written = (await events(w.org, 'ticket.updated')).filter((e) => (e.payload as any).ticket_id === w.t2);
    const final = await t.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: w.t2 } });
    expect((written[written.length - 1].payload as any).priority).toBe(final.priority);
    // each event's previous priority is the one before it: a chain with no gaps
    for (let i = 1; i < written.length; i++)
      expect((written[i].previous_attributes as any).priority).toBe((written[i - 1].payload as any).priority);
  });

  it('under an Idempotency-Key, racing and later repeats make one ticket and one event; another request under the key is 422', async () => {
    const made = (c: RequestContext, body: Record<string, unknown>, key: string) =>
      new CreateTicket(tickets(), chats, attacher, new CustomPropertyRepository(t.prisma)).execute({
        ctx: c,
        body: body as any,
        headers: { 'idempotency-key': key },
      });
    const key = `k-${newUuid()}`;
    const body = { chat_id: w.a, subject: 'Once' };
    const answers = await Promise.all([1, 2, 3, 4].map(() => made(ctx(w.org), body, key)));
    expect(new Set(answers.map((a) => a.ticket.ticket_id)).size).toBe(1);
    const id = answers[0].ticket.ticket_id;
    expect((await made(ctx(w.org), body, key)).ticket.ticket_id).toBe(id);
    expect((await events(w.org, 'ticket.created')).filter((e) => (e.payload as any).ticket_id === id)).toHaveLength(1);
    expect(await status(made(ctx(w.org), { ...body, subject: 'Other' }, key))).toBe(422);
    expect(await status(made(ctx(w.org), body, ''))).toBe(422);
    // the key is the organization's own: another organization's same key makes its own ticket
    expect((await made(ctx(w.other), body, key)).ticket.ticket_id).not.toBe(id);
    expect(await t.prisma.inboxTicket.count({ where: { subject: 'Once', org_id: w.org } })).toBe(1);
  });

  it("deletes a ticket in reach once, with ticket.deleted; out of reach or another organization's is 404 and changes nothing", async () => {
    const remove = (c: RequestContext, id: string) =>
      new DeleteTicket(tickets(), chats, noReach).execute({ ctx: c, params: { ticket_id: id } });
    const id = (await create(ctx(w.org), { chat_id: w.a, subject: 'Delete me' })).ticket.ticket_id;
    const before = await t.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: id } });
    expect(await status(remove(ctx(w.other), id))).toBe(404);
    expect(await status(remove(ctx(w.org, [w.p2]), id))).toBe(404);
    expect(await t.prisma.inboxTicket.findUniqueOrThrow({ where: { ticket_id: id } })).toEqual(before);
    await expect(remove(ctx(w.org, [w.p1]), id)).resolves.toBeNull();
    const deleted = (await events(w.org, 'ticket.deleted')).filter((e) => (e.payload as any).ticket_id === id);
    expect(deleted).toHaveLength(1);
    expect(registryPayload(deleted[0])).toMatchObject({ ticket_id: id, subject: 'Delete me', is_deleted: true });
    expect(await status(new GetTicket(tickets(), chats, noReach).execute({ ctx: ctx(w.org), params: { ticket_id: id } }))).toBe(404);
    expect((await list(ctx(w.org))).tickets.map((x) => x.ticket_id)).not.toContain(id);
    expect(await status(remove(ctx(w.org), id))).toBe(404);
    expect(await status(update(ctx(w.org), id, { subject: 'back' }))).toBe(404);
    expect((await events(w.org, 'ticket.deleted')).filter((e) => (e.payload as any).ticket_id === id)).toHaveLength(1);
  });

  describe('notes', () => {
    const createNote = (c: RequestContext, body: Record<string, unknown>) =>
      new CreateNote(notes(), chats).execute({ ctx: c, body: body as any });
    const page = { offset: 0, limit: 2000 };

    it('creates a private note on a chat in reach with note.created; 404 out of reach', async () => {
      const made = await createNote(ctx(w.org), { chat_id: w.a, message: 'call back at 5' });
      expect(made).toMatchObject({
        success: true,
        data: { chat_id: w.a, body: 'call back at 5', is_private_note: true, org_id: w.org, ack: null, sent_message_id: null },
      });
      const [event] = await events(w.org, 'note.created');
      expect(registryPayload(event)).toEqual(made.data);
      expect(event.phone_id).toBe(w.p1);
      w.n1 = made.data.message_id;
      w.n2 = (await createNote(ctx(w.org), { chat_id: w.b, message: 'second' })).data.message_id;
      w.n3 = (await createNote(ctx(w.other), { chat_id: w.a, message: 'theirs' })).data.message_id;
      expect(await status(createNote(ctx(w.org, [w.p2]), { chat_id: w.a, message: 'x' }))).toBe(404);
      expect(await status(createNote(ctx(w.other), { chat_id: w.b, message: 'x' }))).toBe(404);
    });

    it('under an Idempotency-Key, repeats (racing or later) make one note and one event; another request under the key is 422', async () => {
      const made = (body: Record<string, unknown>, key: string) =>
        new CreateNote(notes(), chats).execute({ ctx: ctx(w.org), body: body as any, headers: { 'idempotency-key': key } });
      const key = `k-${newUuid()}`;
      const answers = await Promise.all([1, 2, 3].map(() => made({ chat_id: w.b, message: 'once' }, key)));
      expect(new Set(answers.map((a) => a.data.message_id)).size).toBe(1);
      expect((await made({ chat_id: w.b, message: 'once' }, key)).data).toEqual(answers[0].data);
      expect(
        (await events(w.org, 'note.created')).filter((e) => (e.payload as any).message_id === answers[0].data.message_id),
      ).toHaveLength(1);
      expect(await status(made({ chat_id: w.b, message: 'twice' }, key))).toBe(422);
      await t.prisma.inboxNote.delete({ where: { note_id: answers[0].data.message_id } });
    });

    it('lists, reads and lists by chat within reach and the organization, with time bounds', async () => {
      const ids = (r: { notes: { message_id: string }[] }) => r.notes.map((n) => n.message_id);
      expect(ids(await new ListNotes(notes(), noReach).execute({ ctx: ctx(w.org), query: page }))).toEqual([w.n2, w.n1]);
      expect(ids(await new ListNotes(notes(), noReach).execute({ ctx: ctx(w.org, [w.p1]), query: page }))).toEqual([w.n1]);
      expect(ids(await new ListNotes(notes(), noReach).execute({ ctx: ctx(w.other), query: page }))).toEqual([w.n3]);
      const future = await new ListNotes(notes(), noReach).execute({
        ctx: ctx(w.org),
        query: { ...page, start_time: '2999-01-01T00:00:00.000Z' },
      });
      expect(future).toMatchObject({ count: 0, start_time: '2999-01-01T00:00:00.000Z', end_time: null, notes: [] });
      const byChat = (c: RequestContext, chatId: string) =>
        new ListChatNotes(notes(), noReach).execute({ ctx: c, params: { chat_id: chatId }, query: page });
      expect(ids(await byChat(ctx(w.org), w.a))).toEqual([w.n1]);
      expect(ids(await byChat(ctx(w.other), w.a))).toEqual([w.n3]);
      expect(ids(await byChat(ctx(w.org, [w.p2]), w.a))).toEqual([]);
      const get = (c: RequestContext, id: string) => new GetNote(notes(), noReach).execute({ ctx: c, params: { note_id: id } });
      expect((await get(ctx(w.org), w.n1)).body).toBe('call back at 5');
      expect(await status(get(ctx(w.other), w.n1))).toBe(404);
      expect(await status(get(ctx(w.org, null, w.p2), w.n1))).toBe(404);
      expect(await status(get(ctx(w.org), 'nope'))).toBe(404);
    });
  });
});
