import { createServer } from 'node:net';
import { PeriskopeApi } from '@periskope/periskope-client';
import { ChatViewSchema, ContactSchema, MemberRowSchema, MessageSchema, NoteSchema, TicketInfoSchema, TicketSchema } from '@mapi/contracts';
import { createChat, createMessages, createOrg, createPhone, createToken, randomDigits } from '@mapi/testing';
import { client as http, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/** One method of the public client and the route it calls. */
interface ClientRoute {
  method: string;
  verb: string;
  path: string;
}

/**
 * Every method of every API object of the client (`client.chat`, `client.member`, …), each called
 * once with a recording apiClient: the routes the client calls, read from its code, not from a list.
 * A method that calls no route is kept with verb 'NONE' (so the assertion below fails on it).
 */
async function clientRoutes(): Promise<ClientRoute[]> {
  const client = new PeriskopeApi({ authToken: 'mapi_unused', phone: '1', env: 'local' }) as unknown as Record<string, unknown>;
  const routes: ClientRoute[] = [];
  for (const [group, api] of Object.entries(client)) {
    if (!api || typeof api !== 'object' || !('apiClient' in api)) continue;
    const proto = Object.getPrototypeOf(api) as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto).filter((n) => n !== 'constructor' && typeof proto[n] === 'function')) {
      const seen: { verb: string; path: string }[] = [];
      const recorder = new Proxy(
        {},
        {
          get: (_t, verb) => async (path: string) => {
            seen.push({ verb: String(verb), path });
            return { data: undefined, error: undefined, response: new Response(null, { status: 204 }) };
          },
        },
      );
      const copy = Object.create(proto, { apiClient: { value: recorder } }) as Record<string, (...args: unknown[]) => Promise<unknown>>;
      await copy[name]({}, {}).catch(() => undefined);
      const method = `${group}.${name}`;
      if (!seen.length) routes.push({ method, verb: 'NONE', path: '' });
      for (const r of seen) routes.push({ method, ...r });
    }
  }
  return routes;
}

/** A path with its parameters' names erased: the client's {id} and our {member_id} are the same route. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

const portIsFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const srv = createServer().once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

/**
 * The public TypeScript client, unchanged, with env 'local' (http://localhost:8080/v1): existing
 * integrations must work against this service. Needs port 8080 free (stop a running `npm run up`).
 */
describe('the public @periskope/periskope-client against this service', () => {
  let stack: Stack;
  const w: Record<string, any> = {};

  beforeAll(async () => {
    if (!(await portIsFree(8080))) throw new Error('port 8080 is in use: stop the stack started by scripts/up.sh (scripts/down.sh) first');
    // phones answers x-phone lookups and runs the sandbox phones; groups the group lifecycle; inbox tickets and notes; members the members
    stack = await startStack({ SESSION_SCAN_MS: '200' }, { gatewayPort: 8080, services: ['phones', 'groups', 'inbox', 'members'] });
    w.org = await createOrg(stack.prisma);
    w.phone = await createPhone(stack.prisma, w.org.id);
    w.digits = w.phone.org_phone.replace('@c.us', '');
    w.chat = randomDigits();
    await createMessages(
      stack.prisma,
      w.org,
      w.phone,
      [1, 2, 3, 4].map((m) => ({ chatId: `${w.chat}@c.us`, timestamp: new Date(Date.UTC(2026, 1, 1, 9, m)) })),
    );
    await createChat(stack.prisma, w.org, w.phone, { chatId: `${w.chat}@c.us`, unread: 3 });
    w.token = (await createToken(stack.prisma, w.org.id)).token;
  }, 120_000);

  afterAll(() => stack?.stop());

  it("reads a chat's messages through chat.getChatMessages", async () => {
    const client = new PeriskopeApi({ authToken: w.token, phone: w.digits, env: 'local' });
    const res = await client.chat.getChatMessages({ chat_id: w.chat, offset: 1, limit: 2 } as never);
    expect(res.status).toBe(200);
    expect(res.error).toBeFalsy();
    const data = res.data as any;
    expect(data).toMatchObject({ from: 2, to: 3, count: 2 });
    for (const m of data.messages) expect(MessageSchema.safeParse(m).success).toBe(true);
  });

  it("lists chats, reads one, lists every chat's messages and marks a chat read through chat.*", async () => {
    const client = new PeriskopeApi({ authToken: w.token, phone: w.digits, env: 'local' });
    const chats = await client.chat.getChats({ limit: 10 } as never);
    expect(chats.status).toBe(200);
    expect(chats.data).toMatchObject({ from: 1, to: 1, count: 1 });
    const [chat] = chats.data?.chats ?? [];
    expect(ChatViewSchema.safeParse(chat).success).toBe(true);
    expect(chat).toMatchObject({ chat_id: `${w.chat}@c.us`, message_unread_count: 3 });
    const one = await client.chat.getChatById({ chat_id: w.chat });
    expect(one.status).toBe(200);
    expect(one.data).toEqual(chat);
    const all = await client.chat.getMessages({ offset: 0, limit: 3 } as never);
    expect(all.data).toMatchObject({ from: 1, to: 3, count: 3 });
    for (const m of all.data?.messages ?? []) expect(MessageSchema.safeParse(m).success).toBe(true);
    const read = await client.chat.read({ chat_id: w.chat });
    expect(read).toMatchObject({ status: 200, error: null });
    expect(read.data).toBeUndefined();
    expect((await client.chat.getChatById({ chat_id: w.chat })).data?.message_unread_count).toBe(0);
    const missing = await client.chat.getChatById({ chat_id: randomDigits() });
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND_ERROR' });
  });

  it('lists reactions through reaction.getReactions', async () => {
    const chatId = `${w.chat}@c.us`;
    const messageId = `false_${chatId}_PC1`;
    await stack.prisma.messageReaction.create({
      data: {
        org_id: w.org.id,
        phone_id: w.phone.phone_id,
        chat_id: chatId,
        message_id: messageId,
        sender_phone: `${w.chat}@c.us`,
        reaction_id: 'RPC1',
        reaction: '🎉',
        reacted_at: new Date(),
      },
    });
    const client = new PeriskopeApi({ authToken: w.token, phone: w.digits, env: 'local' });
    const res = await client.reaction.getReactions({ chat_id: w.chat, message_id: messageId });
    expect(res).toMatchObject({ status: 200, error: null });
    expect(res.data).toMatchObject({ from: 1, to: 1, count: 1, start_time: null, end_time: null });
    expect(res.data?.reactions[0]).toMatchObject({
      reaction_id: 'RPC1',
      reaction: '🎉',
      message_id: messageId,
      org_phone: w.phone.org_phone,
    });
  });

  it('creates, lists, reads, updates and relabels contacts through contact.*', async () => {
    const client = new PeriskopeApi({ authToken: w.token, phone: w.digits, env: 'local' });
    const id = randomDigits();
    const created = await client.contact.create({ contact_id: id, contact_name: 'Client Contact', is_internal: false, labels: 'Lead' });
    expect(created).toMatchObject({ status: 200, error: null });
    expect(ContactSchema.safeParse(created.data).success).toBe(true);
    expect(created.data).toMatchObject({ contact_id: `${id}@c.us`, contact_name: 'Client Contact', labels: ['lead'] });
    const all = await client.contact.getAll({ offset: 0, limit: 10 });
    expect(all).toMatchObject({ status: 200, error: null });
    expect(all.data?.contacts?.map((c) => c.contact_id)).toContain(`${id}@c.us`);
    const one = await client.contact.getById({ contact_id: id });
    expect(one.data).toMatchObject({ contact_id: `${id}@c.us`, chat_ids: [] });
    const updated = await client.contact.update({ contact_id: id, contact_name: 'Renamed', is_internal: true });
    expect(updated.data).toMatchObject({ contact_name: 'Renamed', is_internal: true });
    const relabelled = await client.contact.updateLabels({ contact_ids: [id], labels: 'vip,gold' });
    expect(relabelled.status).toBe(204);
    expect(relabelled.error).toBeFalsy();
    expect((await client.contact.getById({ contact_id: id })).data).toMatchObject({
      contact_name: 'Renamed',
      label_ids: { vip: true, gold: true },
    });
    const missing = await client.contact.getById({ contact_id: randomDigits() });
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND_ERROR' });
    const invalid = await client.contact.update({ contact_id: id });
    expect(invalid.status).toBe(422);
    expect(invalid.error).toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it('gets, edits, reacts to, pins, forwards and deletes a message through message.*', async () => {
    const api = http(stack.baseUrl, w.token);
    const { phoneId } = await connectedSandboxPhone(api);
    const contact = randomDigits();
    const typed = await api.post(
      '/sandbox/messages',
      { chat_id: contact, body: 'typed on the phone', from_me: true },
      { 'x-phone': phoneId },
    );
    const messageId = typed.body.message_id as string;
    const client = new PeriskopeApi({ authToken: w.token, phone: phoneId, env: 'local' });
    const got = await until(
      () => client.message.getById({ message_id: messageId }),
      (r) => r.status === 200,
      15_000,
      'message stored',
    );
    expect(MessageSchema.safeParse(got.data).success).toBe(true);
    expect(got.data).toMatchObject({ message_id: messageId, body: 'typed on the phone', from_me: true });

    expect(await client.message.edit({ message_id: messageId, edited_body: 'edited through the client' })).toMatchObject({
      status: 204,
      error: null,
    });
    await until(
      () => client.message.getById({ message_id: messageId }),
      (r) => (r.data as any)?.prev_body === 'typed on the phone',
      15_000,
      'edit stored',
    );
    expect((await client.message.getById({ message_id: messageId })).data).toMatchObject({ body: 'edited through the client' });

    expect(await client.message.react({ message_id: messageId, reaction: '🎉' })).toMatchObject({ status: 204, error: null });
    await until(
      () => client.message.getById({ message_id: messageId }),
      (r) => (r.data as any)?.has_reaction === true,
      15_000,
      'reaction stored',
    );
    expect(await client.message.pin({ message_id: messageId, pin: true })).toMatchObject({ status: 204, error: null });

    const target = randomDigits();
    expect(await client.message.forward({ message_id: messageId, forward_chat_ids: [`${target}@c.us`] })).toMatchObject({
      status: 204,
      error: null,
    });
    const copy = await until(
      () => client.chat.getChatMessages({ chat_id: target } as never),
      (r) => (r.data as any)?.count === 1,
      15_000,
      'forwarded copy',
    );
    expect((copy.data as any).messages[0]).toMatchObject({ body: 'edited through the client', is_forwarded: true });

    expect(await client.message.delete({ message_id: messageId })).toMatchObject({ status: 204, error: null });
    await until(
      () => client.message.getById({ message_id: messageId }),
      (r) => (r.data as any)?.is_deleted === true,
      15_000,
      'deletion stored',
    );
    const missing = await client.message.getById({ message_id: `false_${contact}@c.us_3EB0NONE` });
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND_ERROR' });
  });

  it('creates, lists, reads and updates tickets through ticket.*', async () => {
    const client = new PeriskopeApi({ authToken: w.token, phone: w.digits, env: 'local' });
    const created = await client.ticket.create({
      chat_id: w.chat,
      subject: 'From the client',
      priority: 2,
      labels: 'Client',
      assignee: 'amy@example.com',
    } as never);
    expect(created).toMatchObject({ status: 200, error: null });
    expect(TicketInfoSchema.safeParse(created.data).success).toBe(true);
    const ticketId = (created.data as any).ticket.ticket_id as string;
    const all = await client.ticket.getAll({ offset: 0, limit: 10 } as never);
    expect((all.data as any).tickets.map((t: any) => t.ticket_id)).toContain(ticketId);
    for (const t of (all.data as any).tickets) expect(TicketSchema.safeParse(t).success).toBe(true);
    const got = await client.ticket.getById({ ticket_id: ticketId });
    expect(got.data).toMatchObject({ ticket: { ticket_id: ticketId, subject: 'From the client', priority: 2, ticket_labels: 'client' } });
    const updated = await client.ticket.update({ ticket_id: ticketId, status: 'closed', priority: '4' } as never);
    expect(updated.data).toMatchObject({ ticket: { status: 'closed', priority: 4 } });
    const missing = await client.ticket.getById({ ticket_id: '6f1c1b1e-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND_ERROR' });
  });

  it('creates and reads private notes through note.* and chat.getNotesByChat', async () => {
    const client = new PeriskopeApi({ authToken: w.token, phone: w.digits, env: 'local' });
    const made = await client.note.createInternalNote({ chat_id: w.chat, message: 'a private note' } as never);
    expect(made).toMatchObject({
      status: 200,
      error: null,
      data: { success: true, data: { body: 'a private note', is_private_note: true } },
    });
    const noteId = (made.data as any).data.message_id as string;
    const listed = await client.note.getNotes({ offset: 0, limit: 10 } as never);
    expect((listed.data as any).notes.map((n: any) => n.message_id)).toEqual([noteId]);
    const one = await client.note.getNoteById({ note_id: noteId } as never);
    expect(NoteSchema.safeParse(one.data).success).toBe(true);
    const byChat = await client.chat.getNotesByChat({ chat_id: w.chat } as never, {} as never);
    expect((byChat.data as any).notes.map((n: any) => n.message_id)).toEqual([noteId]);
  });

  it('labels a chat and sets its custom properties and assignee through chat.updateLabels / chat.updateChatById', async () => {
    const client = new PeriskopeApi({ authToken: w.token, phone: w.digits, env: 'local' });
    const api = http(stack.baseUrl, w.token);
    const plan = (
      await api.post('/custom-properties/create', { property_name: 'Plan', property_value_type: 'dropdown', property_value: 'Free,Pro' })
    ).body.property_id;
    expect(await client.chat.updateLabels({ chat_ids: [w.chat], labels: 'Client, VIP' })).toMatchObject({ status: 204, error: null });
    const updated = await client.chat.updateChatById({
      chat_id: w.chat,
      custom_properties: { plan: 'pro' },
      assigned_to: 'amy@example.com',
    });
    expect(updated).toMatchObject({
      status: 200,
      error: null,
      data: { chat_id: `${w.chat}@c.us`, assigned_to: 'amy@example.com', custom_properties: { [plan]: 'Pro' } },
    });
    expect(ChatViewSchema.safeParse(updated.data).success).toBe(true);
    const labels = (await api.get('/labels')).body.labels
      .filter((l: any) => ['client', 'vip'].includes(l.name))
      .map((l: any) => l.label_id);
    expect(Object.keys(updated.data?.label_ids ?? {}).sort()).toEqual(labels.sort());
    const byLabel = await client.chat.getChats({ label: 'VIP' } as never);
    expect(byLabel.data?.chats?.map((c) => c.chat_id)).toEqual([`${w.chat}@c.us`]);
    const none = await client.chat.updateChatById({ chat_id: w.chat });
    expect(none).toMatchObject({ status: 422, error: { code: 'VALIDATION_ERROR' } });
  });

  it('invites members, changes their access and removes one through member.*', async () => {
    const client = new PeriskopeApi({ authToken: w.token, phone: w.digits, env: 'local' });
    const invited = await client.member.invite({
      emails: ['Amy@Example.com', 'ben@example.com'],
      role: 'member',
      labels: ['VIP'],
      orgPhones: [w.digits],
    });
    expect(invited).toMatchObject({ status: 200, error: null });
    expect(invited.data?.errors).toEqual([]);
    const rows = invited.data?.addedMembers ?? [];
    for (const row of rows) expect(MemberRowSchema.safeParse(row).success).toBe(true);
    expect(rows.map((m) => [m.email, m.role, m.org_phones, m.label_ids, m.is_active])).toEqual([
      ['amy@example.com', 'member', [w.phone.org_phone], ['vip'], false],
      ['ben@example.com', 'member', [w.phone.org_phone], ['vip'], false],
    ]);
    const access = await client.member.updateAccess({ emails: ['amy@example.com'], labels: null, orgPhones: null });
    expect(access).toMatchObject({ status: 200, error: null });
    expect(access.data?.map((m) => [m.email, m.org_phones, m.label_ids])).toEqual([['amy@example.com', null, null]]);
    const removed = await client.member.delete({ id: rows[1].user_id as string });
    expect(removed).toMatchObject({ status: 204, error: null });
    const again = await client.member.delete({ id: 'ben@example.com' });
    expect(again.status).toBe(404);
    expect(again.error).toMatchObject({ code: 'NOT_FOUND_ERROR' });
  });

  it('sets per-member chat access through chat.updateChatOverrideAccess (PATCH /chats/access)', async () => {
    const client = new PeriskopeApi({ authToken: w.token, phone: w.digits, env: 'local' });
    expect((await client.member.invite({ emails: ['cara@example.com'], role: 'member' })).status).toBe(200);
    const res = await client.chat.updateChatOverrideAccess({ access: { 'cara@example.com': true }, chat_ids: [w.chat] });
    expect(res).toMatchObject({ status: 204, error: null });
    expect((await client.chat.getChatById({ chat_id: w.chat })).data?.override_chat_access).toEqual({ 'cara@example.com': true });
    const unknown = await client.chat.updateChatOverrideAccess({
      access: { 'nobody@example.com': true },
      chat_ids: [w.chat],
      replace: true,
    });
    expect(unknown).toMatchObject({ status: 422, error: { code: 'VALIDATION_ERROR' } });
    const missing = await client.chat.updateChatOverrideAccess({ access: { 'cara@example.com': false }, chat_ids: [randomDigits()] });
    expect(missing).toMatchObject({ status: 404, error: { code: 'NOT_FOUND_ERROR' } });
  });

  it('serves every route of every client method: each is in our OpenAPI document and none answers "Route not found"', async () => {
    const routes = await clientRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(69);
    expect(routes.filter((r) => r.verb === 'NONE')).toEqual([]);
    const doc = (await http(stack.baseUrl, w.token).get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const served = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((verb) => `${verb.toUpperCase()} ${shape(path)}`)),
    );
    expect(routes.filter((r) => !served.has(`${r.verb} ${shape(r.path)}`))).toEqual([]);
    // called for real, by an organization with nothing in it (so no call changes anything): never the router's 404
    const empty = http(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    const call = { GET: empty.get, POST: empty.post, PATCH: empty.patch, DELETE: empty.delete } as Record<
      string,
      (path: string, body?: unknown) => Promise<{ status: number; body: any }>
    >;
    const unrouted: string[] = [];
    for (const r of routes) {
      const path = r.path.replace(/\{[^}]+\}/g, '120363000000000000');
      const res = r.verb === 'GET' || r.verb === 'DELETE' ? await call[r.verb](path) : await call[r.verb](path, {});
      if (res.status === 404 && res.body?.message === 'Route not found') unrouted.push(`${r.method}: ${r.verb} ${r.path}`);
    }
    expect(unrouted).toEqual([]);
  });

  it("surfaces our error envelope as the client's error (code and status)", async () => {
    const client = new PeriskopeApi({ authToken: 'mapi_wrong', phone: w.digits, env: 'local' });
    const res = await client.chat.getChatMessages({ chat_id: w.chat } as never);
    expect(res.status).toBe(401);
    expect(res.error).toMatchObject({ code: 'UNAUTHORIZED_ERROR' });
  });

  it("runs a group's lifecycle through group.* and reads its notifications through chat.getNotifications / getChatNotifications", async () => {
    const api = http(stack.baseUrl, w.token);
    const phoneId = (await api.post('/phones/create')).body.phone_id;
    await until(
      () => api.get('/phones', { 'x-phone': phoneId }),
      (r) => r.body?.wa_state === 'QR',
      10_000,
      'QR',
    );
    const number = randomDigits();
    await api.post('/sandbox/phones/scan', { number }, { 'x-phone': phoneId });
    await until(
      () => api.get('/phones', { 'x-phone': phoneId }),
      (r) => r.body?.wa_state === 'CONNECTED',
      10_000,
      'connected',
    );
    const client = new PeriskopeApi({ authToken: w.token, phone: number, env: 'local' });
    const member = randomDigits();

    const created = await client.group.create({
      group_name: 'Client group',
      participants: [member],
      options: { messagesAdminsOnly: false },
    });
    expect(created).toMatchObject({ status: 200, error: null });
    expect(ChatViewSchema.safeParse(created.data).success).toBe(true);
    const chatId = created.data?.chat_id as string;
    expect(created.data).toMatchObject({ chat_name: 'Client group', chat_type: 'group', org_phone: `${number}@c.us` });

    const invite = await client.group.generateInviteLink({ chat_id: chatId });
    expect(invite).toMatchObject({
      status: 200,
      error: null,
      data: { invite_link: expect.stringMatching(/^https:\/\/chat\.whatsapp\.com\//) },
    });
    const settings = await client.group.updateSettings({ chat_id: chatId, name: 'Renamed by client', infoAdminsOnly: true });
    expect(settings).toMatchObject({ status: 200, error: null, data: { chat_id: chatId, chat_name: 'Renamed by client' } });
    const refused = await client.group.acceptGroupInvite({ invite_code: 'NoSuchCode1' });
    expect(refused).toMatchObject({ status: 400, error: { code: 'ERROR' } });

    const inChat = await until(
      () => client.chat.getChatNotifications({ chat_id: chatId } as never),
      (r) => (r.data as any)?.count === 4,
      10_000,
      'notifications',
    );
    expect((inChat.data as any).notifictions.map((n: any) => n.type).sort()).toEqual(['add', 'create', 'restrict', 'subject']);
    const all = await client.chat.getNotifications({ limit: 2 } as never);
    expect(all).toMatchObject({ status: 200, error: null, data: { from: 1, to: 2, count: 2 } });

    const left = await client.group.leaveGroup({ chat_id: chatId });
    expect(left).toMatchObject({ status: 200, error: null });
    expect(left.data).toBeUndefined();
    const invalid = await client.group.leaveGroup({ chat_id: 'not-a-group' });
    expect(invalid).toMatchObject({ status: 422, error: { code: 'VALIDATION_ERROR' } });
  });
});
