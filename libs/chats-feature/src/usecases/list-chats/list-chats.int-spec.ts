import { randomUUID } from 'node:crypto';
import { ListChatsQuery, type ListChatsRequest, type RequestContext } from '@mapi/contracts';
import { createChat, createMessages, createTwoPhoneOrgAndOther, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { ChatViewRepository } from '../../repositories/chat-view-repository';
import { MessageRepository } from '../../repositories/message-repository';
import { ListChats } from './list-chats.usecase';

const t = useTestDatabase('list_chats_team_filters');

/**
 * GET /chats's team filters (ours, for the console's inbox): assigned_to, unread, flagged, search,
 * combined with each other and with x-phone, the token's phones and a member's labels; flag_count.
 * Another organization holds a copy of the same chat id, assigned, flagged and with the searched
 * words: none of it may match, count or come back.
 */
describe('ListChats team filters (integration)', () => {
  const w: Record<string, any> = {};
  const ctx = (extra: Partial<RequestContext> = {}): RequestContext => ({
    org_id: w.org.id,
    token_id: randomUUID(),
    phone_scope: null,
    phone: null,
    ...extra,
  });
  const list = async (query: Record<string, string>, c: RequestContext = ctx()) => {
    const parsed = ListChatsQuery.parse(query) as ListChatsRequest['query'];
    const answer = await new ListChats(new ChatViewRepository(t.prisma), new MessageRepository(t.prisma)).execute({
      ctx: c,
      query: parsed,
    });
    return answer.chats;
  };
  const ids = async (query: Record<string, string>, c?: RequestContext) => (await list(query, c)).map((chat) => chat.chat_id);
  const minute = (m: number) => new Date(Date.UTC(2026, 0, 2, 9, m));

  beforeAll(async () => {
    const p = t.prisma;
    Object.assign(w, await createTwoPhoneOrgAndOther(p));
    w.a = `${randomDigits()}@c.us`; // p1: named, assigned to agent, unread, one flagged message (on p1 and p2 alike)
    w.b = `${randomDigits()}@c.us`; // p1: a contact's name, unassigned, read
    w.c = `${randomDigits()}@c.us`; // p2 only: assigned to someone else, unread, flagged
    const flagged = { flag_status: true };
    const sharedUnique = '3EB0FLAGGEDSHARED01';
    await createMessages(p, w.org, w.p1, [
      {
        chatId: w.a,
        body: 'Refund for order 42, please',
        timestamp: minute(1),
        overrides: { ...flagged, unique_id: sharedUnique, message_id: `false_${w.a}_${sharedUnique}` },
      },
      { chatId: w.a, body: 'still waiting', timestamp: minute(5) },
      { chatId: w.b, body: 'hello there', timestamp: minute(3) },
    ]);
    await createMessages(p, w.org, w.p2, [
      {
        chatId: w.a,
        body: 'Refund for order 42, please',
        timestamp: minute(1),
        overrides: { ...flagged, unique_id: sharedUnique, message_id: `false_${w.a}_${sharedUnique}` },
      },
      { chatId: w.c, body: 'my parcel is late', timestamp: minute(4), overrides: flagged },
    ]);
    // The other organization: the same chat id as `b`, assigned to agent, unread, flagged, with words searched below.
    await createMessages(p, w.other, w.q, [{ chatId: w.b, body: 'secret refund words', timestamp: minute(9), overrides: flagged }]);
    await createChat(p, w.org, w.p1, { chatId: w.a, chatName: 'Acme 100% Support', unread: 2 });
    await createChat(p, w.org, w.p2, { chatId: w.a, chatName: 'Acme 100% Support' });
    await createChat(p, w.org, w.p1, { chatId: w.b });
    await createChat(p, w.org, w.p2, { chatId: w.c, unread: 1 });
    await createChat(p, w.other, w.q, { chatId: w.b, chatName: 'Other org', unread: 4 });
    await p.chatProperties.createMany({
      data: [
        { org_id: w.org.id, chat_id: w.a, assigned_to: 'agent@example.com' },
        { org_id: w.org.id, chat_id: w.c, assigned_to: 'someone@example.com' },
        { org_id: w.other.id, chat_id: w.b, assigned_to: 'agent@example.com' },
      ],
    });
    await p.contact.createMany({
      data: [
        { org_id: w.org.id, contact_id: w.b, contact_name: 'Zoë Customer', phone_ids: [w.p1.phone_id] },
        { org_id: w.other.id, contact_id: w.a, contact_name: 'Hidden Person', phone_ids: [w.q.phone_id] },
      ],
    });
    await p.chatLabel.create({ data: { org_id: w.org.id, chat_id: w.a, label_id: newUuid(), label_name: 'vip' } });
  });

  it('lists everything in order without filters, with flag_count per chat in reach (a message two phones hold once)', async () => {
    const chats = await list({});
    expect(chats.map((c) => c.chat_id)).toEqual([w.a, w.c, w.b]);
    expect(chats.map((c) => c.flag_count)).toEqual([1, 1, 0]);
    // x-phone p1: the flagged message of c (p2's) is out of reach, a's copy on p1 still counts
    expect(
      (await list({}, ctx({ phone: { phone_id: w.p1.phone_id, org_phone: w.p1.org_phone } }))).map((c) => [c.chat_id, c.flag_count]),
    ).toEqual([
      [w.a, 1],
      [w.b, 0],
    ]);
  });

  it('filters by assignee (any case) and by no assignee', async () => {
    expect(await ids({ assigned_to: 'Agent@Example.com' })).toEqual([w.a]);
    expect(await ids({ assigned_to: 'none' })).toEqual([w.b]);
    expect(await ids({ assigned_to: 'nobody@example.com' })).toEqual([]);
  });

  it('filters by unread and by flagged, true and false, within the phones in reach', async () => {
    expect(await ids({ unread: 'true' })).toEqual([w.a, w.c]);
    expect(await ids({ unread: 'false' })).toEqual([w.b]);
    expect(await ids({ flagged: 'true' })).toEqual([w.a, w.c]);
    expect(await ids({ flagged: 'false' })).toEqual([w.b]);
    // a's unread copy is p1's: p2 alone sees it read
    expect(await ids({ unread: 'true' }, ctx({ phone_scope: [w.p2.phone_id] }))).toEqual([w.c]);
  });

  it('searches names, contact names, numbers and message words, literally', async () => {
    expect(await ids({ search: 'acme' })).toEqual([w.a]);
    expect(await ids({ search: '100%' })).toEqual([w.a]);
    expect(await ids({ search: '%' })).toEqual([w.a]); // the name holds a literal %, nothing else matches it
    expect(await ids({ search: '_' })).toEqual([]);
    expect(await ids({ search: 'zoë' })).toEqual([w.b]);
    expect(await ids({ search: w.c.slice(2, 9) })).toEqual([w.c]);
    expect(await ids({ search: `+${w.c.slice(0, 2)} ${w.c.slice(2, 6)}` })).toEqual([w.c]);
    expect(await ids({ search: 'REFUND, for' })).toEqual([w.a]);
    expect(await ids({ search: 'parcel' })).toEqual([w.c]);
    expect(await ids({ search: 'parcel' }, ctx({ phone_scope: [w.p1.phone_id] }))).toEqual([]);
  });

  it('combines every filter given', async () => {
    expect(await ids({ unread: 'true', flagged: 'true', assigned_to: 'agent@example.com', search: 'refund', label: 'vip' })).toEqual([w.a]);
    expect(await ids({ unread: 'true', assigned_to: 'none' })).toEqual([]);
    expect(await ids({ flagged: 'true', search: 'hello' })).toEqual([]);
  });

  it("never matches on, counts or returns another organization's data", async () => {
    // the other organization's copy of b is assigned to agent, unread, flagged and holds 'secret refund words'
    expect(await ids({ assigned_to: 'agent@example.com' })).toEqual([w.a]);
    expect(await ids({ search: 'secret' })).toEqual([]);
    expect(await ids({ search: 'hidden person' })).toEqual([]);
    expect(await ids({ search: 'other org' })).toEqual([]);
    expect((await list({ search: 'hello' }))[0]).toMatchObject({ chat_id: w.b, flag_count: 0, message_unread_count: 0, assigned_to: null });
    // and the other organization sees only its own
    const theirs = await list({ search: 'refund', flagged: 'true', unread: 'true' }, ctx({ org_id: w.other.id }));
    expect(theirs.map((c) => [c.chat_id, c.org_id, c.flag_count])).toEqual([[w.b, w.other.id, 1]]);
    // a token of this organization naming the other's phone reaches nothing
    expect(await ids({ search: 'secret' }, ctx({ phone_scope: [w.q.phone_id] }))).toEqual([]);
  });

  it("keeps a member's labels: a member limited to vip finds no other chat, whatever the filter", async () => {
    const amy = ctx({
      phone_scope: [w.p1.phone_id, w.p2.phone_id],
      member: { member_id: newUuid(), session_id: newUuid(), email: 'amy@example.com', role: 'member', label_ids: ['vip'] },
    });
    expect(await ids({}, amy)).toEqual([w.a]);
    expect(await ids({ search: 'hello' }, amy)).toEqual([]);
    expect(await ids({ flagged: 'true' }, amy)).toEqual([w.a]);
    expect(await ids({ assigned_to: 'none' }, amy)).toEqual([]);
  });

  it('refuses malformed filters with their field', () => {
    for (const [key, value] of [
      ['assigned_to', 'nobody'],
      ['unread', 'yes'],
      ['flagged', '1'],
      ['search', '   '],
      ['search', 'x'.repeat(101)],
    ]) {
      const parsed = ListChatsQuery.safeParse({ [key]: value });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0].path).toEqual([key]);
    }
  });
});
