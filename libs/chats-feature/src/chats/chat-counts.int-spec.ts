import { randomUUID } from 'node:crypto';
import { ChatCopiesWithLabelRpc, CountUnreadChatsRpc, type RequestContext } from '@mapi/contracts';
import { createChat, createMessages, createTwoPhoneOrgAndOther, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { ChatCountsRepository } from '../repositories/chat-counts-repository';
import { ChatPropertiesRepository } from '../repositories/chat-properties-repository';
import { CopiesWithLabel } from '../usecases/copies-with-label/copies-with-label.usecase';
import { CountUnreadChats } from '../usecases/count-unread-chats/count-unread-chats.usecase';
import { chatPropertyEvents } from './chat-property-events';

const t = useTestDatabase('chat_counts');

/**
 * What the analytics service asks of the chats service (chats.v1.chat.count-unread and copies-with-label)
 * against Postgres: unread copies per phone and organization, a member's reach (labels, overrides) and
 * read marks, a label by name (any case) or id; another organization's chats never count.
 * Amy is a member of phone 1 limited to label vip; `far` (phone 2) is granted to her, `denied` (vip) denied.
 */
describe('chat counts for analytics (integration)', () => {
  const w: Record<string, any> = {};
  const LABEL_ID = newUuid();
  const ctx = (extra: Partial<RequestContext> = {}, org = w.org.id): RequestContext => ({
    org_id: org,
    token_id: randomUUID(),
    phone_scope: null,
    phone: null,
    ...extra,
  });
  const AMY_ID = newUuid();
  const amy = (extra: Partial<RequestContext> = {}) =>
    ctx({
      phone_scope: [w.p1.phone_id],
      member: { member_id: AMY_ID, session_id: newUuid(), email: 'amy@example.com', role: 'member', label_ids: ['vip'] },
      ...extra,
    });
  const unread = (c: RequestContext, phone_id?: string) =>
    new CountUnreadChats(new ChatCountsRepository(t.prisma)).execute(
      CountUnreadChatsRpc.request.parse({ ctx: c, body: phone_id === undefined ? {} : { phone_id } }),
    );
  const labelled = async (c: RequestContext, label: string, copies = w.copies) =>
    (
      await new CopiesWithLabel(new ChatCountsRepository(t.prisma)).execute(
        ChatCopiesWithLabelRpc.request.parse({ ctx: c, body: { copies, label } }),
      )
    ).labelled
      .map((x) => `${x.phone_id === w.p1.phone_id ? 'p1' : x.phone_id === w.p2.phone_id ? 'p2' : 'q'}:${x.chat_id}`)
      .sort();
  const HOUR = 3_600_000;
  const T = Date.now() - 10 * HOUR;

  beforeAll(async () => {
    const p = t.prisma;
    Object.assign(w, await createTwoPhoneOrgAndOther(p));
    [w.vip, w.plain, w.read, w.far, w.denied] = Array.from({ length: 5 }, () => `${randomDigits()}@c.us`);
    const put = async (org: any, phone: any, chatId: string, unreadCount: number) => {
      await createMessages(p, org, phone, [{ chatId, fromMe: false, body: 'hello', timestamp: new Date(T) }]);
      await createChat(p, org, phone, { chatId, unread: unreadCount });
    };
    await put(w.org, w.p1, w.vip, 2);
    await put(w.org, w.p1, w.plain, 1);
    await put(w.org, w.p1, w.read, 0);
    await put(w.org, w.p2, w.far, 4);
    await put(w.org, w.p1, w.denied, 3);
    await put(w.other, w.q, w.vip, 5); // the other organization's unread copy, labelled vip there
    const props = new ChatPropertiesRepository(p, chatPropertyEvents);
    await props.set(w.org.id, [w.vip, w.read, w.denied], null, { labels: [{ label_id: LABEL_ID, name: 'vip' }] });
    await props.set(w.other.id, [w.vip], null, { labels: [{ label_id: newUuid(), name: 'vip' }] });
    await props.set(w.org.id, [w.far], null, { override_chat_access: { 'amy@example.com': true } });
    await props.set(w.org.id, [w.denied], null, { override_chat_access: { 'amy@example.com': false } });
    w.copies = [
      ...[w.vip, w.plain, w.read, w.denied].map((chat_id) => ({ phone_id: w.p1.phone_id, chat_id })),
      { phone_id: w.p2.phone_id, chat_id: w.far },
      { phone_id: w.q.phone_id, chat_id: w.vip },
    ];
  });

  it("counts the unread copies of the caller's phones, never another organization's", async () => {
    expect(await unread(ctx())).toEqual({ count: 4 }); // vip, plain, far, denied
    expect(await unread(ctx(), w.p2.phone_id)).toEqual({ count: 1 });
    expect(await unread(ctx({ phone_scope: [w.p1.phone_id] }))).toEqual({ count: 3 });
    expect(await unread(ctx({ phone: { phone_id: w.p2.phone_id, org_phone: w.p2.org_phone } }))).toEqual({ count: 1 });
    expect(await unread(ctx({ phone_scope: [] }))).toEqual({ count: 0 });
    expect(await unread(ctx({}, w.other.id))).toEqual({ count: 1 });
    expect(await unread(ctx(), w.q.phone_id)).toEqual({ count: 0 }); // another organization's phone named: nothing
    // a token's read (the phone's count to 0) takes the copy off
    await t.prisma.chat.update({ where: { phone_id_chat_id: { phone_id: w.p1.phone_id, chat_id: w.plain } }, data: { unread_count: 0 } });
    expect(await unread(ctx())).toEqual({ count: 3 });
    await t.prisma.chat.update({ where: { phone_id_chat_id: { phone_id: w.p1.phone_id, chat_id: w.plain } }, data: { unread_count: 1 } });
  });

  it("narrows a member's count to their reach and follows their own read marks", async () => {
    expect(await unread(amy())).toEqual({ count: 2 }); // vip (label), far (granted); not plain, not denied
    expect(await unread(amy(), w.p1.phone_id)).toEqual({ count: 1 });
    // Amy reads vip (her mark after its message): her count drops, the phones' count and a token's stay
    const mark = (chatId: string, phone = w.p1.phone_id) =>
      t.prisma.chatMemberRead.create({
        data: { org_id: w.org.id, member_id: AMY_ID, phone_id: phone, chat_id: chatId, read_at: new Date(T + HOUR) },
      });
    await mark(w.vip);
    expect(await unread(amy())).toEqual({ count: 1 });
    expect(await unread(ctx())).toEqual({ count: 4 });
    // another member's session (no mark) still counts vip
    const ben = ctx({ member: { member_id: newUuid(), session_id: newUuid(), email: 'ben@example.com', role: 'admin' } });
    expect(await unread(ben)).toEqual({ count: 4 });
    // a customer message after her mark makes it unread for her again; one of her own (from_me) does not
    await createMessages(t.prisma, w.org, w.p1, [{ chatId: w.vip, fromMe: true, body: 'reply', timestamp: new Date(T + 2 * HOUR) }]);
    expect(await unread(amy())).toEqual({ count: 1 });
    await createMessages(t.prisma, w.org, w.p1, [{ chatId: w.vip, fromMe: false, body: 'again', timestamp: new Date(T + 3 * HOUR) }]);
    expect(await unread(amy())).toEqual({ count: 2 });
    // a mark on a copy out of her reach counts nothing, even with messages after it
    await mark(w.plain);
    await createMessages(t.prisma, w.org, w.p1, [{ chatId: w.plain, fromMe: false, body: 'more', timestamp: new Date(T + 3 * HOUR) }]);
    expect(await unread(amy())).toEqual({ count: 2 });
  });

  it('keeps the copies carrying a label, by name in any case or by id, within reach', async () => {
    const p1 = (c: string) => `p1:${c}`;
    expect(await labelled(ctx(), 'VIP')).toEqual([p1(w.vip), p1(w.read), p1(w.denied)].sort());
    expect(await labelled(ctx(), LABEL_ID)).toEqual([p1(w.vip), p1(w.read), p1(w.denied)].sort());
    expect(await labelled(ctx(), 'nothing-like-it')).toEqual([]);
    expect(await labelled(ctx({ phone_scope: [w.p2.phone_id] }), 'vip')).toEqual([]);
    expect(await labelled(amy(), 'vip')).toEqual([p1(w.vip), p1(w.read)].sort()); // denied to her
    // the other organization's copy is theirs only
    expect(await labelled(ctx({}, w.other.id), 'vip')).toEqual([`q:${w.vip}`]);
  });
});
