import {
  createChat,
  createMessages,
  createOrg,
  createPhone,
  randomDigits,
  seededMinute as at,
  seedSharedAndSoloChats,
  useTestDatabase,
} from '@mapi/testing';
import { ChatMemberSchema } from '@mapi/contracts';
import { mapMember } from '../chats/map-chat';
import { ChatRepository } from './chat-repository';
import { ChatViewRepository } from './chat-view-repository';

const t = useTestDatabase('chat_view_repo');

/** The chats listing against real Postgres: one entry per chat id, order, filters, scoping, read marks and the plan. */
describe('ChatViewRepository (integration)', () => {
  const w: Record<string, any> = {};
  let repo: ChatViewRepository;

  beforeAll(async () => {
    const p = t.prisma;
    repo = new ChatViewRepository(p);
    Object.assign(w, await seedSharedAndSoloChats(p, { p1: 2, p2: 5 }));
    w.group = `1203630${randomDigits(11)}@g.us`;
    w.empty = `${randomDigits()}@c.us`; // no messages: ordered by creation
    await createMessages(p, w.org, w.p1, [{ chatId: w.group, timestamp: at(3) }]);
    await createChat(p, w.org, w.p1, { chatId: w.group, chatName: 'Team' });
    await createChat(p, w.org, w.p1, { chatId: w.empty, createdAt: at(4) });
    await p.groupParticipant.createMany({
      data: ['111@c.us', '222@c.us'].map((c, i) => ({
        org_id: w.org.id,
        phone_id: w.p1.phone_id,
        chat_id: w.group,
        contact_id: c,
        is_admin: i === 0,
      })),
    });
  });

  it('lists each chat id once, most recently active first, from the most recent copy, with every copy in reach', async () => {
    const rows = await repo.list(w.org.id, { phoneIds: null, offset: 0, limit: 10 });
    expect(rows.map((r) => r.chat_id)).toEqual([w.shared, w.solo, w.empty, w.group]);
    expect(rows[0]).toMatchObject({ phone_id: w.p2.phone_id, org_phone: w.p2.org_phone, latest_message_at: at(7) });
    expect(rows[0].copies.map((c) => [c.phone_id, c.unread_count]).sort()).toEqual(
      [
        [w.p1.phone_id, 2],
        [w.p2.phone_id, 5],
      ].sort(),
    );
    expect(rows.every((r) => r.org_id === w.org.id)).toBe(true);
    expect(rows[2]).toMatchObject({ latest_message_id: null, latest_message_at: null, activity_at: at(4) });
  });

  it("narrows to phones in reach; an empty scope or another organization's phone reads nothing", async () => {
    const one = await repo.list(w.org.id, { phoneIds: [w.p1.phone_id], offset: 0, limit: 10 });
    expect(one.map((r) => r.chat_id)).toEqual([w.solo, w.empty, w.group, w.shared]);
    expect(one[3]).toMatchObject({ phone_id: w.p1.phone_id, latest_message_at: at(1) });
    expect(one[3].copies).toHaveLength(1);
    expect(await repo.list(w.org.id, { phoneIds: [], offset: 0, limit: 10 })).toEqual([]);
    expect(await repo.list(w.org.id, { phoneIds: [w.q.phone_id], offset: 0, limit: 10 })).toEqual([]);
    expect(await repo.findOne(w.other.id, w.solo, null)).toBeNull();
  });

  it('filters by type and by activity time (inclusive), and pages consistently', async () => {
    expect((await repo.list(w.org.id, { phoneIds: null, chatType: 'group', offset: 0, limit: 10 })).map((r) => r.chat_id)).toEqual([
      w.group,
    ]);
    const timed = await repo.list(w.org.id, { phoneIds: null, start: at(3).toISOString(), end: at(5).toISOString(), offset: 0, limit: 10 });
    expect(timed.map((r) => r.chat_id)).toEqual([w.solo, w.empty, w.group]);
    const all = await repo.list(w.org.id, { phoneIds: null, offset: 0, limit: 10 });
    const paged = [];
    for (let offset = 0; offset < 5; offset += 2) paged.push(...(await repo.list(w.org.id, { phoneIds: null, offset, limit: 2 })));
    expect(paged.map((r) => r.chat_id)).toEqual(all.map((r) => r.chat_id));
  });

  it("shows a group's settings from the copy that stored them, not from a more active member phone's copy made without them", async () => {
    const p = t.prisma;
    const g = `1203630${randomDigits(11)}@g.us`;
    // p1 created the group (the connector's upsert stored its settings); p2 is a member whose copy came from a notification
    await createChat(p, w.org, w.p1, { chatId: g, chatName: 'Ops' });
    await p.chat.update({
      where: { phone_id_chat_id: { phone_id: w.p1.phone_id, chat_id: g } },
      data: {
        group_description: 'night shift',
        messages_admins_only: true,
        info_admins_only: true,
        add_members_admins_only: true,
        activity_at: at(20),
      },
    });
    await createChat(p, w.org, w.p2, { chatId: g });
    await p.chat.update({ where: { phone_id_chat_id: { phone_id: w.p2.phone_id, chat_id: g } }, data: { activity_at: at(30) } });
    const settings = {
      group_description: 'night shift',
      messages_admins_only: true,
      info_admins_only: true,
      add_members_admins_only: true,
    };
    const [seen] = await repo.list(w.org.id, { phoneIds: null, chatId: g, offset: 0, limit: 1 });
    expect(seen).toMatchObject({ phone_id: w.p2.phone_id, ...settings });
    // the member phone alone in reach: the settings still come from a copy in reach only, so none here
    const [p2only] = await repo.list(w.org.id, { phoneIds: [w.p2.phone_id], chatId: g, offset: 0, limit: 1 });
    expect(p2only).toMatchObject({ phone_id: w.p2.phone_id, group_description: null, add_members_admins_only: null });
    // a 1-1 chat is never read for group settings
    const [shared] = await repo.list(w.org.id, { phoneIds: null, chatId: w.shared, offset: 0, limit: 1 });
    expect(shared.add_members_admins_only).toBeNull();
    await p.chat.deleteMany({ where: { org_id: w.org.id, chat_id: g } });
  });

  it('reads group members of a copy', async () => {
    const members = await repo.members(w.org.id, [{ phone_id: w.p1.phone_id, chat_id: w.group }]);
    expect(members.map((m) => [m.contact_id, m.is_admin])).toEqual([
      ['111@c.us', true],
      ['222@c.us', false],
    ]);
    expect(await repo.members(w.other.id, [{ phone_id: w.p1.phone_id, chat_id: w.group }])).toEqual([]);
  });

  it("gives group members their contact of the organization (names, labels), another organization's never", async () => {
    await t.prisma.contact.create({
      data: {
        org_id: w.org.id,
        contact_id: '111@c.us',
        pushname: 'Pat',
        contact_name: 'Patricia',
        labels: ['vip'],
        phone_ids: [w.p1.phone_id],
      },
    });
    await t.prisma.contact.create({
      data: { org_id: w.other.id, contact_id: '222@c.us', pushname: 'Not ours', phone_ids: [w.q.phone_id] },
    });
    const members = await repo.members(w.org.id, [{ phone_id: w.p1.phone_id, chat_id: w.group }]);
    expect(members.map((m) => [m.contact_id, m.contact_name, m.pushname, m.labels])).toEqual([
      ['111@c.us', 'Patricia', 'Pat', ['vip']],
      ['222@c.us', null, null, null],
    ]);
    const [pat, other] = members.map((m) => mapMember(w.org.id, w.p1.org_phone, m));
    expect(pat).toMatchObject({
      contact_name: 'Patricia',
      periskope_name: 'Patricia',
      pushname: 'Pat',
      label_ids: { vip: true },
      is_internal: false,
    });
    expect(other).toMatchObject({ contact_name: null, pushname: null, label_ids: null, is_internal: null, updated_at: null });
    expect(ChatMemberSchema.safeParse(pat).success).toBe(true);
    expect(ChatMemberSchema.safeParse(other).success).toBe(true);
  });

  it("names a one-to-one chat after its contact: the team's name, else the phone's, else the push name; a group keeps its subject", async () => {
    const p = t.prisma;
    const org = await createOrg(p);
    const other = await createOrg(p);
    const phone = await createPhone(p, org.id);
    const [team, phoned, pushed, bare, foreign] = Array.from({ length: 5 }, () => `${randomDigits()}@c.us`);
    const group = `1203630${randomDigits(11)}@g.us`;
    for (const [chatId, chatName] of [
      [team, 'Mom'],
      [phoned, 'Dr Lee'],
      [pushed, null],
      [bare, null],
      [foreign, null],
      [group, 'Ops'],
    ] as [string, string | null][])
      await createChat(p, org, phone, { chatId, chatName });
    await p.contact.createMany({
      data: [
        { org_id: org.id, contact_id: team, contact_name: 'Carla Ruiz', pushname: 'carla', phone_ids: [phone.phone_id] },
        { org_id: org.id, contact_id: phoned, contact_name: '', pushname: 'lee', phone_ids: [phone.phone_id] },
        { org_id: org.id, contact_id: pushed, pushname: 'Dora Berg', phone_ids: [phone.phone_id] },
        { org_id: org.id, contact_id: group, contact_name: 'Not a group name', phone_ids: [phone.phone_id] },
        { org_id: other.id, contact_id: foreign, contact_name: 'Not ours', phone_ids: [] },
      ],
    });
    const rows = await repo.list(org.id, { phoneIds: null, offset: 0, limit: 10 });
    const names = Object.fromEntries(rows.map((r) => [r.chat_id, r.chat_name]));
    expect(names).toEqual({
      [team]: 'Carla Ruiz',
      [phoned]: 'Dr Lee',
      [pushed]: 'Dora Berg',
      [bare]: null,
      [foreign]: null,
      [group]: 'Ops',
    });
    expect((await repo.findOne(org.id, pushed, [phone.phone_id]))?.chat_name).toBe('Dora Berg');
  });

  it("marks read only the copies in reach of the caller's organization", async () => {
    const chats = new ChatRepository(t.prisma);
    expect(await chats.markRead(w.other.id, w.solo, null)).toBe(0);
    expect(await chats.markRead(w.org.id, w.shared, [w.p2.phone_id])).toBe(1);
    const unread = async () => ((await repo.findOne(w.org.id, w.shared, null))?.copies ?? []).map((c) => c.unread_count).sort();
    expect(await unread()).toEqual([0, 2]);
    expect(await chats.markRead(w.org.id, w.shared, null)).toBe(2);
    expect(await unread()).toEqual([0, 0]);
    const theirs = await repo.findOne(w.other.id, w.shared, null);
    expect(theirs).not.toBeNull();
  });

  it('reads a 2000-chat page of a 30,000-chat organization in index order, without sorting', async () => {
    const org = await createOrg(t.prisma);
    const phone = await createPhone(t.prisma, org.id);
    await t.prisma.$executeRawUnsafe(
      `INSERT INTO chats (org_id, phone_id, chat_id, chat_type, org_phone, activity_at)
       SELECT $1::uuid, $2, (1000000000 + g)::text || '@c.us', 'user', $3, now() - g * interval '1 second' FROM generate_series(1, 30000) g`,
      org.id,
      phone.phone_id,
      phone.org_phone,
    );
    await t.prisma.$executeRawUnsafe('ANALYZE chats');
    const [plan] = await t.prisma.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(
      `EXPLAIN (FORMAT JSON) SELECT c.chat_id FROM chats c WHERE c.org_id = $1::uuid
         AND NOT EXISTS (SELECT 1 FROM chats o WHERE o.org_id = c.org_id AND o.chat_id = c.chat_id AND (o.activity_at, o.phone_id) > (c.activity_at, c.phone_id))
       ORDER BY c.activity_at DESC, c.chat_id DESC LIMIT 2000`,
      org.id,
    );
    const text = JSON.stringify(plan['QUERY PLAN']);
    expect(text).toMatch(/chats_org_id_activity_at_chat_id_idx/);
    expect(text).not.toMatch(/"Node Type":"Sort"/);
    const rows = await repo.list(org.id, { phoneIds: null, offset: 0, limit: 2000 });
    expect(rows).toHaveLength(2000);
    expect(rows[0].chat_id).toBe('1000000001@c.us');
    const deep = await repo.list(org.id, { phoneIds: [phone.phone_id], offset: 29_999, limit: 10 });
    expect(deep.map((r) => r.chat_id)).toEqual(['1000030000@c.us']);
  });
});
