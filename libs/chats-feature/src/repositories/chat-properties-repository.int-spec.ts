import { createChat, newUuid, randomDigits, registryPayload, seedSharedAndSoloChats, useTestDatabase } from '@mapi/testing';
import { ChatPropertiesRepository } from './chat-properties-repository';
import { ChatViewRepository } from './chat-view-repository';
import { chatPropertyEvents } from '../chats/chat-property-events';

const t = useTestDatabase('chat_properties_repo');

/**
 * Chat labels and custom property values against real Postgres: organization-wide values, all or
 * nothing, events with previous_attributes, the label filter of GET /chats, and organizations isolated.
 */
describe('ChatPropertiesRepository (integration)', () => {
  const w: Record<string, any> = {};
  let repo: ChatPropertiesRepository;
  let views: ChatViewRepository;
  const events = (org: string, type: string) => t.prisma.outboxEvent.findMany({ where: { org_id: org, type }, orderBy: { seq: 'asc' } });
  const counts = async () => [await t.prisma.chatProperties.count(), await t.prisma.chatLabel.count(), await t.prisma.outboxEvent.count()];

  beforeAll(async () => {
    const p = t.prisma;
    repo = new ChatPropertiesRepository(p, chatPropertyEvents);
    views = new ChatViewRepository(p);
    Object.assign(w, await seedSharedAndSoloChats(p));
    w.theirs = `${randomDigits()}@c.us`; // the other organization's only
    await createChat(p, w.other, w.q, { chatId: w.theirs });
    [w.vip, w.late] = [newUuid(), newUuid()];
  });

  it('says which chats no phone in reach holds', async () => {
    expect(await repo.missing(w.org.id, [w.shared, w.solo, w.theirs], null)).toEqual([w.theirs]);
    expect(await repo.missing(w.org.id, [w.shared, w.solo], [w.p2.phone_id])).toEqual([w.solo]);
    expect(await repo.missing(w.org.id, [w.shared], [])).toEqual([w.shared]);
    expect(await repo.missing(w.other.id, [w.solo], null)).toEqual([w.solo]);
  });

  it('sets labels on several chats at once, organization-wide, with chat.label.updated per chat from its most recent copy', async () => {
    const labels = [
      { label_id: w.vip, name: 'vip' },
      { label_id: w.late, name: 'late' },
    ];
    expect(await repo.set(w.org.id, [w.shared, w.solo], null, { labels })).toBe(2);
    const rows = await t.prisma.chatLabel.findMany({ where: { org_id: w.org.id }, orderBy: [{ chat_id: 'asc' }, { label_name: 'asc' }] });
    expect(rows).toHaveLength(4);
    const sorted = [w.vip, w.late].sort();
    const [forShared] = (await events(w.org.id, 'chat.label.updated')).filter((e) => (e.payload as any).chat_id === w.shared);
    expect(registryPayload(forShared)).toMatchObject({
      chat_id: w.shared,
      phone_id: w.p2.phone_id,
      label_ids: { [sorted[0]]: true, [sorted[1]]: true },
      custom_properties: {},
      assigned_to: null,
    });
    expect(forShared.phone_id).toBe(w.p2.phone_id);
    expect(forShared.previous_attributes).toEqual({ label_ids: {} });
    const [shared] = await views.list(w.org.id, { phoneIds: [w.p1.phone_id], chatId: w.shared, offset: 0, limit: 1 });
    expect(shared.properties.label_ids).toEqual(sorted);
  });

  it('changes nothing and writes no event when the values are already so', async () => {
    const before = await counts();
    expect(
      await repo.set(w.org.id, [w.shared], null, {
        labels: [
          { label_id: w.late, name: 'late' },
          { label_id: w.vip, name: 'vip' },
        ],
      }),
    ).toBe(0);
    expect(await counts()).toEqual(before);
  });

  it('merges custom property values (null removes one) and sets the assignee; previous_attributes holds the values before', async () => {
    await repo.set(w.org.id, [w.solo], null, { custom_properties: { tier: 'gold', seats: '3' }, assigned_to: 'amy@example.com' });
    await repo.set(w.org.id, [w.solo], null, { custom_properties: { seats: null, region: 'EU' } });
    const [, second] = await events(w.org.id, 'chat.custom_properties.updated');
    expect(registryPayload(second)).toMatchObject({
      chat_id: w.solo,
      custom_properties: { tier: 'gold', region: 'EU' },
      assigned_to: 'amy@example.com',
    });
    expect(second.previous_attributes).toEqual({ custom_properties: { seats: '3', tier: 'gold' } });
    const [solo] = await views.list(w.org.id, { phoneIds: null, chatId: w.solo, offset: 0, limit: 1 });
    expect(solo.properties).toMatchObject({
      assigned_to: 'amy@example.com',
      custom_properties: { tier: 'gold', region: 'EU' },
      override_chat_access: null,
    });
    expect(await repo.set(w.org.id, [w.solo], null, { assigned_to: null })).toBe(1);
    expect((await t.prisma.chatProperties.findFirst({ where: { org_id: w.org.id, chat_id: w.solo } }))?.assigned_to).toBeNull();
  });

  it("all or nothing: a chat out of reach or another organization's means nothing is written", async () => {
    const before = await counts();
    expect(await repo.set(w.org.id, [w.solo, w.theirs], null, { labels: [] })).toBeNull();
    expect(await repo.set(w.org.id, [w.solo, w.shared], [w.p2.phone_id], { assigned_to: 'x@example.com' })).toBeNull();
    expect(await repo.set(w.other.id, [w.solo], null, { custom_properties: { tier: 'x' } })).toBeNull();
    expect(await repo.set(w.org.id, [w.solo], [], { custom_properties: { tier: 'x' } })).toBeNull();
    expect(await counts()).toEqual(before);
  });

  it("another organization's copy of the same chat id has values of its own", async () => {
    expect(
      await repo.set(w.other.id, [w.shared], null, {
        labels: [{ label_id: newUuid(), name: 'vip' }],
        custom_properties: { tier: 'theirs' },
      }),
    ).toBe(1);
    const [mine] = await views.list(w.org.id, { phoneIds: null, chatId: w.shared, offset: 0, limit: 1 });
    expect(mine.properties.custom_properties).toEqual({});
    expect(mine.properties.label_ids).toEqual([w.vip, w.late].sort());
  });

  it('GET /chats?label= keeps the chats carrying the label, named by name in any case or by id, within the organization', async () => {
    const list = (org: string, label: string, phoneIds: string[] | null = null) =>
      views.list(org, { phoneIds, label, offset: 0, limit: 10 }).then((r) => r.map((c) => c.chat_id));
    expect(await list(w.org.id, 'VIP')).toEqual([w.shared, w.solo]);
    expect(await list(w.org.id, w.late)).toEqual([w.shared, w.solo]);
    expect(await list(w.org.id, 'vip', [w.p2.phone_id])).toEqual([w.shared]);
    expect(await list(w.org.id, 'nobody')).toEqual([]);
    expect(await list(w.other.id, w.vip)).toEqual([]);
    expect(await list(w.other.id, 'vip')).toEqual([w.shared]);
    await repo.set(w.org.id, [w.solo], null, { labels: [] });
    expect(await list(w.org.id, 'vip')).toEqual([w.shared]);
  });

  it("drops a deleted property's values in its organization only", async () => {
    await repo.set(w.org.id, [w.shared], null, { custom_properties: { tier: 'silver' } });
    expect(await repo.dropProperty(w.org.id, 'tier')).toBe(2);
    const mine = await t.prisma.chatProperties.findMany({ where: { org_id: w.org.id } });
    expect(mine.every((r) => !('tier' in (r.custom_properties as object)))).toBe(true);
    expect((await t.prisma.chatProperties.findFirst({ where: { org_id: w.other.id, chat_id: w.shared } }))?.custom_properties).toEqual({
      tier: 'theirs',
    });
  });
});
