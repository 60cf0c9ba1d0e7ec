import { createChat, createMessages, createTwoPhoneOrgAndOther, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { ChatPropertiesRepository } from '../repositories/chat-properties-repository';
import { ChatViewRepository } from '../repositories/chat-view-repository';
import { MessageRepository } from '../repositories/message-repository';
import type { MemberChatAccess } from './chat-reach';
import { chatPropertyEvents } from '../chats/chat-property-events';

const t = useTestDatabase('chat_reach');

/**
 * A member's labels and per-chat overrides narrowing chat reads, against Postgres: GET /chats,
 * GET /chats/{chat_id}, a chat's messages and GET /chats/messages read through the same predicate.
 * Another organization's labels and overrides (same chat ids, same email) change nothing.
 */
describe('member chat reach (integration)', () => {
  const w: Record<string, any> = {};
  const at = (m: number) => new Date(Date.UTC(2026, 0, 1, 10, m));
  let views: ChatViewRepository;
  let messages: MessageRepository;
  const amy = (labels: string[] | null, grantPhone: string | null = null): MemberChatAccess => ({
    email: 'amy@example.com',
    labels,
    grantPhone,
  });
  const chats = async (phoneIds: string[] | null, member: MemberChatAccess | null, org = w.org.id) =>
    (await views.list(org, { phoneIds, member, offset: 0, limit: 50 })).map((c) => c.chat_id).sort();
  const allMessages = async (phoneIds: string[] | null, member: MemberChatAccess | null) =>
    [...new Set((await messages.listAll(w.org.id, { phoneIds, member, offset: 0, limit: 50 })).map((m) => m.chat_id))].sort();

  beforeAll(async () => {
    const p = t.prisma;
    views = new ChatViewRepository(p);
    messages = new MessageRepository(p);
    const props = new ChatPropertiesRepository(p, chatPropertyEvents);
    Object.assign(w, await createTwoPhoneOrgAndOther(p));
    // vip: p1, labelled vip; plain: p1, no label; far: p2, labelled vip; shared: on p1 and p2, no label
    [w.vip, w.plain, w.far, w.shared] = [randomDigits(), randomDigits(), randomDigits(), randomDigits()].map((d) => `${d}@c.us`);
    const put = async (org: any, phone: any, chatId: string, m: number) => {
      await createMessages(p, org, phone, [{ chatId, timestamp: at(m) }]);
      await createChat(p, org, phone, { chatId });
    };
    await put(w.org, w.p1, w.vip, 1);
    await put(w.org, w.p1, w.plain, 2);
    await put(w.org, w.p2, w.far, 3);
    await put(w.org, w.p1, w.shared, 4);
    await put(w.org, w.p2, w.shared, 5);
    await put(w.other, w.q, w.plain, 6);
    w.vipLabel = newUuid();
    await props.set(w.org.id, [w.vip, w.far], null, { labels: [{ label_id: w.vipLabel, name: 'vip' }] });
    // the other organization labels and grants its copy of `plain` to the same email: nothing of ours changes
    await props.set(w.other.id, [w.plain], null, {
      labels: [{ label_id: newUuid(), name: 'vip' }],
      override_chat_access: { 'amy@example.com': true },
    });
  });

  it("labels narrow: only chats carrying one of the member's labels, by name or by id, on the member's phones", async () => {
    expect(await chats([w.p1.phone_id], amy(['vip']))).toEqual([w.vip]);
    expect(await chats([w.p1.phone_id], amy([w.vipLabel]))).toEqual([w.vip]);
    expect(await chats(null, amy(['vip']))).toEqual([w.far, w.vip].sort());
    expect(await chats(null, amy(['nobody']))).toEqual([]);
    expect(await chats([w.p1.phone_id], amy(null))).toEqual([w.plain, w.shared, w.vip].sort());
    expect(await chats([w.p1.phone_id], null)).toEqual([w.plain, w.shared, w.vip].sort());
    expect(await allMessages([w.p1.phone_id], amy(['vip']))).toEqual([w.vip]);
  });

  it('an override true grants a chat beyond phones and labels; false denies one within them', async () => {
    const props = new ChatPropertiesRepository(t.prisma, chatPropertyEvents);
    await props.set(w.org.id, [w.far], null, { override_chat_access: { 'amy@example.com': true } });
    await props.set(w.org.id, [w.vip], null, { override_chat_access: { 'amy@example.com': false, 'ben@example.com': true } });
    expect(await chats([w.p1.phone_id], amy(['vip']))).toEqual([w.far]);
    expect(await chats([w.p1.phone_id], amy(null))).toEqual([w.far, w.plain, w.shared].sort());
    expect(await chats([], amy(['vip']))).toEqual([w.far]);
    const far = await views.findOne(w.org.id, w.far, [w.p1.phone_id], amy(['vip']));
    expect(far?.copies.map((c) => c.phone_id)).toEqual([w.p2.phone_id]);
    expect(await views.findOne(w.org.id, w.vip, [w.p1.phone_id], amy(['vip']))).toBeNull();
    expect(await views.findOne(w.org.id, w.vip, [w.p1.phone_id], null)).not.toBeNull();
    const farMessages = await messages.listByChat(w.org.id, {
      chatId: w.far,
      phoneIds: [w.p1.phone_id],
      member: amy(['vip']),
      offset: 0,
      limit: 10,
    });
    expect(farMessages).toHaveLength(1);
    expect(
      await messages.listByChat(w.org.id, { chatId: w.vip, phoneIds: [w.p1.phone_id], member: amy(['vip']), offset: 0, limit: 10 }),
    ).toEqual([]);
    expect(await allMessages([w.p1.phone_id], amy(['vip']))).toEqual([w.far]);
  });

  it("with x-phone, a grant reaches only that phone's copy", async () => {
    expect(await chats([w.p1.phone_id], amy(['vip'], w.p1.phone_id))).toEqual([]);
    expect(await chats([w.p2.phone_id], amy(['vip'], w.p2.phone_id))).toEqual([w.far]);
  });

  it("another organization's labels and overrides for the same email and chat id reach nothing of ours, and ours nothing of theirs", async () => {
    expect(await chats([w.p1.phone_id], amy(['nobody']))).toEqual([w.far]);
    expect(await chats(null, amy(['nobody']), w.other.id)).toEqual([w.plain]);
    expect(await chats(null, { email: 'ben@example.com', labels: ['nobody'], grantPhone: null }, w.other.id)).toEqual([]);
  });
});
