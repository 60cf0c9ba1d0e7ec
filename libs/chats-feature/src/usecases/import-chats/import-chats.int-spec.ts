import type { ChatView, RequestContext } from '@mapi/contracts';
import { createOrg, createPhone, newUuid, phoneDirectoryFromDb, randomDigits, useTestDatabase } from '@mapi/testing';
import { ChatPropertiesRepository } from '../../repositories/chat-properties-repository';
import { ChatViewRepository } from '../../repositories/chat-view-repository';
import { MessageRepository } from '../../repositories/message-repository';
import { GetChat } from '../get-chat/get-chat.usecase';
import { ImportChats } from './import-chats.usecase';
import { chatPropertyEvents } from '../../chats/chat-property-events';

const t = useTestDatabase('import_chats');
const ctx = (orgId: string): RequestContext => ({ org_id: orgId, token_id: newUuid(), phone_scope: null, phone: null, member: null });
const run = (orgId: string, items: unknown[]) =>
  new ImportChats(t.prisma, phoneDirectoryFromDb(t.prisma)).execute({ ctx: ctx(orgId), body: { items } });
const getChat = async (orgId: string, chatId: string) =>
  JSON.parse(
    JSON.stringify(
      await new GetChat(new ChatViewRepository(t.prisma), new MessageRepository(t.prisma)).execute({
        ctx: ctx(orgId),
        params: { chat_id: chatId },
      }),
    ),
  ) as ChatView;
const group = () => `1203630${randomDigits(11)}@g.us`;
const pinAt = Date.now() - 60_000;

/** A source organization with a group its phone holds: named, with settings, a pin, labels, properties and an assignee. */
async function sourceGroup() {
  const org = await createOrg(t.prisma);
  const phone = await createPhone(t.prisma, org.id);
  const chatId = group();
  await t.prisma.chat.create({
    data: {
      org_id: org.id,
      phone_id: phone.phone_id,
      chat_id: chatId,
      chat_name: 'Team',
      chat_type: 'group',
      org_phone: phone.org_phone,
      created_at: new Date('2025-01-02T03:04:05.000Z'),
      group_description: 'about',
      messages_admins_only: true,
      unread_count: 4,
      pinned_messages: [{ message_id: `false_${chatId}_M1`, at: pinAt, pinned: true, expires_at: pinAt + 86_400_000 }],
    },
  });
  for (const [contact_id, is_admin] of [
    ['4915111111111@c.us', true],
    ['4915122222222@c.us', false],
  ] as const) {
    await t.prisma.groupParticipant.create({ data: { org_id: org.id, phone_id: phone.phone_id, chat_id: chatId, contact_id, is_admin } });
  }
  const labels = [{ label_id: newUuid(), name: 'VIP' }];
  await new ChatPropertiesRepository(t.prisma, chatPropertyEvents).set(org.id, [chatId], null, {
    labels,
    custom_properties: { p1: 'one' },
    assigned_to: 'a@x.io',
  });
  return { org, phone, chatId, labels, chat: await getChat(org.id, chatId) };
}

async function target() {
  const org = await createOrg(t.prisma);
  const p1 = await createPhone(t.prisma, org.id);
  const p2 = await createPhone(t.prisma, org.id, { org_phone: null, wa_state: 'DISCONNECTED', is_ready: false });
  return { org, p1, p2 };
}

describe('ImportChats (chats.v1.import.chats)', () => {
  it("writes each phone copy and the organization's values, answered as the source answers them; a second run skips", async () => {
    const s = await sourceGroup();
    const to = await target();
    const labels = [{ label_id: newUuid(), name: 'VIP' }]; // the importer's translated label id
    const item = {
      source_id: s.chatId,
      phones: [
        { phone_id: to.p1.phone_id, org_phone: s.phone.org_phone },
        { phone_id: to.p2.phone_id, org_phone: null },
      ],
      chat: s.chat,
      labels,
      custom_properties: { p9: 'one' },
      assigned_to: 'a@x.io',
    };
    expect((await run(to.org.id, [item])).results).toEqual([{ source_id: s.chatId, target_id: s.chatId, outcome: 'created' }]);

    const copies = await t.prisma.chat.findMany({ where: { org_id: to.org.id }, orderBy: { phone_id: 'asc' } });
    expect(copies).toHaveLength(2);
    expect(
      copies.every(
        (c) =>
          c.chat_name === 'Team' &&
          c.chat_type === 'group' &&
          c.group_description === 'about' &&
          c.messages_admins_only &&
          c.created_at.toISOString() === '2025-01-02T03:04:05.000Z',
      ),
    ).toBe(true);
    const mine = await getChat(to.org.id, s.chatId);
    expect(mine.label_ids).toEqual({ [labels[0].label_id]: true });
    expect(mine.custom_properties).toEqual({ p9: 'one' });
    expect(mine.assigned_to).toBe('a@x.io');
    expect(mine.pinned_messages).toEqual(s.chat.pinned_messages);
    expect(copies.find((c) => c.phone_id === to.p1.phone_id)).toMatchObject({ unread_count: 4, org_phone: s.phone.org_phone });
    expect(await t.prisma.outboxEvent.count({ where: { org_id: to.org.id } })).toBe(0);
    const members = (m: ChatView['members']) =>
      Object.values(m ?? {})
        .map((x) => [x.contact_id, x.is_admin, x.is_super_admin])
        .sort();
    expect(members(mine.members)).toEqual(members(s.chat.members));
    expect(await t.prisma.groupParticipant.count({ where: { org_id: to.org.id } })).toBe(4);

    const before = await t.prisma.chat.findMany({ where: { org_id: to.org.id }, orderBy: { phone_id: 'asc' } });
    expect((await run(to.org.id, [item])).results[0].outcome).toBe('skipped');
    expect(await t.prisma.chat.findMany({ where: { org_id: to.org.id }, orderBy: { phone_id: 'asc' } })).toEqual(before);

    const promoted = {
      ...item,
      chat: { ...s.chat, members: { x: { contact_id: '4915122222222@c.us', is_admin: true, is_super_admin: false } } },
    };
    expect((await run(to.org.id, [promoted])).results[0].outcome).toBe('updated');
    expect(await t.prisma.groupParticipant.count({ where: { org_id: to.org.id, is_admin: true } })).toBe(4);

    const renamed = { ...item, chat: { ...s.chat, chat_name: 'Team 2' }, labels: [], assigned_to: null };
    expect((await run(to.org.id, [renamed])).results[0].outcome).toBe('updated');
    const after = await getChat(to.org.id, s.chatId);
    expect([after.chat_name, after.label_ids, after.assigned_to, after.custom_properties]).toEqual(['Team 2', {}, null, { p9: 'one' }]);
  });

  it("fails an item naming another organization's phone, and a bad item, with why, while the rest lands; the other organization is untouched", async () => {
    const s = await sourceGroup();
    const to = await target();
    const foreignBefore = await t.prisma.chat.findMany({ where: { org_id: s.org.id } });
    const propsBefore = await t.prisma.chatProperties.findMany({ where: { org_id: s.org.id } });
    const good = { source_id: 'c2', phones: [{ phone_id: to.p1.phone_id }], chat: { chat_id: group(), chat_name: 'Other' } };
    const answer = await run(to.org.id, [
      {
        source_id: s.chatId,
        phones: [{ phone_id: s.phone.phone_id }],
        chat: { ...s.chat, chat_name: 'stolen' },
        labels: [],
        assigned_to: null,
      },
      { source_id: 'bad', phones: [], chat: s.chat },
      good,
    ]);
    expect(answer.results).toEqual([
      { source_id: s.chatId, target_id: null, outcome: 'failed', reason: `phone ${s.phone.phone_id} is not a phone of this organization` },
      { source_id: 'bad', target_id: null, outcome: 'failed', reason: expect.stringMatching(/^phones: /) },
      { source_id: 'c2', target_id: good.chat.chat_id, outcome: 'created' },
    ]);
    expect(await t.prisma.chat.findMany({ where: { org_id: s.org.id } })).toEqual(foreignBefore);
    expect(await t.prisma.chatProperties.findMany({ where: { org_id: s.org.id } })).toEqual(propsBefore);
    expect(await t.prisma.chat.count({ where: { org_id: to.org.id } })).toBe(1);
  });

  it("leaves a chat id another organization holds as theirs, writing this organization's own copy", async () => {
    const s = await sourceGroup();
    const to = await target();
    const before = await getChat(s.org.id, s.chatId);
    const item = {
      source_id: s.chatId,
      phones: [{ phone_id: to.p1.phone_id }],
      chat: { ...s.chat, chat_name: 'Mine' },
      labels: [],
      custom_properties: {},
      assigned_to: 'b@x.io',
    };
    expect((await run(to.org.id, [item])).results[0].outcome).toBe('created');
    expect(await getChat(s.org.id, s.chatId)).toEqual(before);
    expect((await getChat(to.org.id, s.chatId)).assigned_to).toBe('b@x.io');
  });
});
