import { randomUUID } from 'node:crypto';
import { ListChatsQuery, ReadChatRpc, type ListChatsRequest, type RequestContext } from '@mapi/contracts';
import { createChat, createMessages, createTwoPhoneOrgAndOther, randomDigits, useTestDatabase } from '@mapi/testing';
import { ChatRepository } from '../../repositories/chat-repository';
import { ChatViewRepository } from '../../repositories/chat-view-repository';
import { MessageRepository } from '../../repositories/message-repository';
import { ReadChat } from '../read-chat/read-chat.usecase';
import { ListChats } from './list-chats.usecase';

const t = useTestDatabase('list_chats_member_reads');

/**
 * Issue 33 / decision 0091: read marks per member (POST /chats/{chat_id}/read by a console session
 * marks it for that member only; member_unread_count and unread=true follow the member's marks,
 * the phones' unread_count stays for everyone else), the open-ticket filter (the inbox's tickets,
 * open or in progress, on a phone in reach) and keyset paging by cursor. The other organization holds
 * the same chat ids, unread, with an open ticket and a read mark of the same member id: none of it
 * may match, count or come back.
 */
describe('ListChats: member read marks, open_ticket, cursor (integration)', () => {
  const w: Record<string, any> = {};
  const session = (email: string, memberId: string, extra: Partial<RequestContext> = {}): RequestContext => ({
    org_id: w.org.id,
    token_id: memberId,
    phone_scope: null,
    phone: null,
    member: { member_id: memberId, session_id: randomUUID(), email, role: 'admin', label_ids: null },
    ...extra,
  });
  const token = (extra: Partial<RequestContext> = {}): RequestContext => ({
    org_id: w.org.id,
    token_id: randomUUID(),
    phone_scope: null,
    phone: null,
    ...extra,
  });
  const listing = async (query: Record<string, string>, ctx: RequestContext) =>
    new ListChats(new ChatViewRepository(t.prisma), new MessageRepository(t.prisma)).execute({
      ctx,
      query: ListChatsQuery.parse(query) as ListChatsRequest['query'],
    });
  const ids = async (query: Record<string, string>, ctx: RequestContext) => (await listing(query, ctx)).chats.map((c) => c.chat_id);
  const read = (ctx: RequestContext, chatId: string) =>
    new ReadChat(new ChatRepository(t.prisma)).execute(ReadChatRpc.request.parse({ ctx, params: { chat_id: chatId } }));
  const memberUnread = async (ctx: RequestContext, chatId: string) =>
    (await listing({}, ctx)).chats.find((c) => c.chat_id === chatId)?.member_unread_count;
  const minute = (m: number) => new Date(Date.UTC(2026, 0, 3, 9, m));

  beforeAll(async () => {
    const p = t.prisma;
    Object.assign(w, await createTwoPhoneOrgAndOther(p));
    w.ana = randomUUID();
    w.bo = randomUUID();
    w.a = `${randomDigits()}@c.us`; // p1: two customer messages, unread 2; an open ticket
    w.b = `${randomDigits()}@c.us`; // p1: read; a closed ticket, and an in-progress one on p2 (no copy there)
    w.c = `${randomDigits()}@c.us`; // p2: unread 1
    await createMessages(p, w.org, w.p1, [
      { chatId: w.a, body: 'one', timestamp: minute(1) },
      { chatId: w.a, body: 'two', timestamp: minute(2) },
      { chatId: w.b, body: 'hi', timestamp: minute(3) },
    ]);
    await createMessages(p, w.org, w.p2, [{ chatId: w.c, body: 'late parcel', timestamp: minute(4) }]);
    await createMessages(p, w.other, w.q, [{ chatId: w.b, body: 'other org', timestamp: minute(9) }]);
    await createChat(p, w.org, w.p1, { chatId: w.a, unread: 2 });
    await createChat(p, w.org, w.p1, { chatId: w.b });
    await createChat(p, w.org, w.p2, { chatId: w.c, unread: 1 });
    await createChat(p, w.other, w.q, { chatId: w.b, unread: 5 });
    await createChat(p, w.other, w.q, { chatId: w.a, unread: 5 });
    const ticket = (org: string, phone: string, chat: string, status: string, is_deleted = false) => ({
      ticket_id: randomUUID(),
      org_id: org,
      phone_id: phone,
      chat_id: chat,
      subject: 's',
      status,
      is_deleted,
    });
    await p.inboxTicket.createMany({
      data: [
        ticket(w.org.id, w.p1.phone_id, w.a, 'open'),
        ticket(w.org.id, w.p1.phone_id, w.b, 'closed'),
        ticket(w.org.id, w.p1.phone_id, w.c, 'open', true), // deleted: not open
        ticket(w.org.id, w.p2.phone_id, w.b, 'inprogress'), // p2's ticket on b
        ticket(w.other.id, w.q.phone_id, w.b, 'open'),
      ],
    });
    // The other organization's mark for the same member id on its copy of `a` (must not read ours).
    await p.chatMemberRead.create({
      data: { org_id: w.other.id, member_id: w.ana, phone_id: w.q.phone_id, chat_id: w.a, read_at: minute(59) },
    });
  });

  it("a member's read marks the chat read for that member only; the phones' count and other members' stay", async () => {
    const ana = session('Ana@Example.com', w.ana);
    const bo = session('bo@example.com', w.bo);
    expect(await memberUnread(ana, w.a)).toEqual({ 'ana@example.com': 2 }); // no mark yet: the phone's count
    expect(await ids({ unread: 'true' }, ana)).toEqual([w.c, w.a]);
    await read(ana, w.a);
    expect(await memberUnread(ana, w.a)).toEqual({ 'ana@example.com': 0 });
    expect(await ids({ unread: 'true' }, ana)).toEqual([w.c]);
    expect(await ids({ unread: 'false' }, ana)).toEqual([w.b, w.a]);
    expect(await memberUnread(bo, w.a)).toEqual({ 'bo@example.com': 2 });
    expect(await ids({ unread: 'true' }, bo)).toEqual([w.c, w.a]);
    const viaToken = (await listing({}, token())).chats.find((c) => c.chat_id === w.a);
    expect(viaToken?.unread_count).toEqual({ [w.p1.org_phone]: 2 });
    expect(viaToken?.member_unread_count).toBeNull();
    expect(await ids({ unread: 'true' }, token())).toEqual([w.c, w.a]);
    // The other organization's copy and mark are untouched.
    expect((await t.prisma.chat.findFirst({ where: { org_id: w.other.id, chat_id: w.a } }))?.unread_count).toBe(5);
    expect(await t.prisma.chatMemberRead.count({ where: { org_id: w.other.id } })).toBe(1);
    expect(await t.prisma.chatMemberRead.count({ where: { org_id: w.org.id, member_id: w.ana } })).toBe(1);
  });

  it("a customer's message after the mark counts for the member again; one sent from the phone does not", async () => {
    const ana = session('ana@example.com', w.ana);
    const mark = await t.prisma.chatMemberRead.findFirstOrThrow({ where: { org_id: w.org.id, member_id: w.ana, chat_id: w.a } });
    const after = new Date(mark.read_at.getTime() + 1000);
    await createMessages(t.prisma, w.org, w.p1, [
      { chatId: w.a, body: 'three', timestamp: after },
      { chatId: w.a, body: 'our answer', timestamp: after, fromMe: true },
    ]);
    await t.prisma.chat.updateMany({
      where: { org_id: w.org.id, chat_id: w.a },
      data: { latest_message_at: after, activity_at: minute(2) },
    });
    expect(await memberUnread(ana, w.a)).toEqual({ 'ana@example.com': 1 });
    expect(await ids({ unread: 'true' }, ana)).toEqual([w.c, w.a]);
    await read(ana, w.a); // read again: the mark moves to the newest message (its time is ahead of now)
    expect(await memberUnread(ana, w.a)).toEqual({ 'ana@example.com': 0 });
  });

  it('a read of a chat out of reach is 404 and marks nothing; a token read still zeroes the phone count', async () => {
    const ana = session('ana@example.com', w.ana, {
      phone: { phone_id: w.p2.phone_id, org_phone: w.p2.org_phone },
      phone_scope: [w.p2.phone_id],
    });
    await expect(read(ana, w.a)).rejects.toMatchObject({ status: 404 });
    const outsider = { ...session('ana@example.com', w.ana), org_id: w.other.id, phone_scope: [] };
    await expect(read(outsider, w.c)).rejects.toMatchObject({ status: 404 });
    expect(await t.prisma.chatMemberRead.count({ where: { member_id: w.ana } })).toBe(2); // ours on a, the other org's
    await read(token(), w.c);
    expect((await t.prisma.chat.findFirst({ where: { org_id: w.org.id, chat_id: w.c } }))?.unread_count).toBe(0);
  });

  it('open_ticket keeps the chats with a ticket open or in progress on a phone in reach', async () => {
    expect(await ids({ open_ticket: 'true' }, token())).toEqual([w.b, w.a]);
    expect(await ids({ open_ticket: 'false' }, token())).toEqual([w.c]);
    // On p1 only, b's in-progress ticket (p2's) is out of reach.
    const p1 = token({ phone: { phone_id: w.p1.phone_id, org_phone: w.p1.org_phone } });
    expect(await ids({ open_ticket: 'true' }, p1)).toEqual([w.a]);
    expect(await ids({ open_ticket: 'true', unread: 'true' }, token())).toEqual([w.a]);
    expect(() => ListChatsQuery.parse({ open_ticket: 'yes' })).toThrow('open_ticket must be true or false');
  });

  it('cursor pages through every chat once, steady while a chat moves up; a made-up cursor is refused', async () => {
    const all = await ids({}, token());
    const seen: string[] = [];
    let page = await listing({ limit: '1' }, token());
    seen.push(...page.chats.map((c) => c.chat_id));
    // The first chat gets a new message meanwhile: it moves to the top, and the next pages neither repeat nor skip.
    await createMessages(t.prisma, w.org, w.p2, [{ chatId: w.c, body: 'again', timestamp: minute(50) }]);
    await t.prisma.chat.updateMany({ where: { org_id: w.org.id, chat_id: w.c }, data: { activity_at: minute(50) } });
    while (page.next_cursor) {
      page = await listing({ limit: '1', cursor: page.next_cursor }, token());
      seen.push(...page.chats.map((c) => c.chat_id));
    }
    expect(seen).toEqual(all);
    expect(page.chats.length).toBeLessThanOrEqual(1);
    expect((await listing({ limit: '10' }, token())).next_cursor).toBeUndefined(); // the last page: the hosted shape
    expect(() => ListChatsQuery.parse({ cursor: 'not-a-cursor' })).toThrow('cursor must be a next_cursor that GET /chats answered');
    expect(() => ListChatsQuery.parse({ cursor: Buffer.from('["2026-01-01","x"]').toString('base64url') })).toThrow('cursor must be');
  });
});
