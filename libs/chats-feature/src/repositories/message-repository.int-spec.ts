import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createMessages, createTwoPhoneOrgAndOther, randomDigits, testEnv } from '@mapi/testing';
import { MessageRepository } from './message-repository';

/** The chats repository against real Postgres: order, paging, phone and organization scoping, and its plan. */
describe('MessageRepository (integration)', () => {
  let prisma: PrismaClient;
  let repo: MessageRepository;
  const w: Record<string, any> = {};

  beforeAll(async () => {
    prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
    repo = new MessageRepository(prisma);
    Object.assign(w, await createTwoPhoneOrgAndOther(prisma));
    w.chat = `${randomDigits()}@c.us`;
    const same = new Date(Date.UTC(2026, 2, 1));
    // three messages with the same timestamp: ties go newest-inserted first
    w.p1rows = await createMessages(prisma, w.org, w.p1, [
      { chatId: w.chat, timestamp: new Date(Date.UTC(2026, 1, 1)) },
      { chatId: w.chat, timestamp: same, body: 'tie-1' },
      { chatId: w.chat, timestamp: same, body: 'tie-2' },
      { chatId: w.chat, timestamp: same, body: 'tie-3' },
    ]);
    await createMessages(prisma, w.org, w.p2, [{ chatId: w.chat, timestamp: new Date(Date.UTC(2026, 0, 1)) }]);
    await createMessages(prisma, w.other, w.q, [{ chatId: w.chat, timestamp: new Date(Date.UTC(2027, 0, 1)) }]);
  });

  afterAll(() => prisma?.$disconnect());

  it("returns the newest first, ties by arrival (newest first), never another organization's rows", async () => {
    const rows = await repo.listByChat(w.org.id, { chatId: w.chat, phoneIds: null, offset: 0, limit: 100 });
    expect(rows.map((r) => (r.body?.startsWith('tie') ? r.body : 'x'))).toEqual(['tie-3', 'tie-2', 'tie-1', 'x', 'x']);
    expect(rows.every((r) => r.org_id === w.org.id)).toBe(true);
    expect(rows[3].timestamp.getTime()).toBeGreaterThan(rows[4].timestamp.getTime());
  });

  it('pages with offset and limit consistently', async () => {
    const all = await repo.listByChat(w.org.id, { chatId: w.chat, phoneIds: null, offset: 0, limit: 100 });
    const pages = [];
    for (let offset = 0; offset < all.length; offset += 2) {
      pages.push(...(await repo.listByChat(w.org.id, { chatId: w.chat, phoneIds: null, offset, limit: 2 })));
    }
    expect(pages.map((r) => r.message_id)).toEqual(all.map((r) => r.message_id));
  });

  it('narrows to the given phones; an empty scope reads nothing; phones of another organization read nothing', async () => {
    expect(await repo.listByChat(w.org.id, { chatId: w.chat, phoneIds: [w.p2.phone_id], offset: 0, limit: 100 })).toHaveLength(1);
    expect(
      await repo.listByChat(w.org.id, { chatId: w.chat, phoneIds: [w.p1.phone_id, w.p2.phone_id], offset: 0, limit: 100 }),
    ).toHaveLength(5);
    expect(await repo.listByChat(w.org.id, { chatId: w.chat, phoneIds: [], offset: 0, limit: 100 })).toHaveLength(0);
    expect(await repo.listByChat(w.org.id, { chatId: w.chat, phoneIds: [w.q.phone_id], offset: 0, limit: 100 })).toHaveLength(0);
  });

  it('serves a 2000-message page of a 30,000-message chat from the index, without sorting', async () => {
    const chat = `${randomDigits()}@c.us`;
    await prisma.$executeRawUnsafe(
      `INSERT INTO messages (org_id, phone_id, chat_id, message_id, unique_id, org_phone, sender_phone, from_me, body, message_type, "timestamp")
       SELECT $1::uuid, $2, $3, 'false_' || $3 || '_U' || g, 'U' || g, $4, $3, false, 'body ' || g, 'chat', now() - g * interval '1 second'
       FROM generate_series(1, 30000) g`,
      w.org.id,
      w.p1.phone_id,
      chat,
      w.p1.org_phone,
    );
    // The organization's other chats: with the (org_id, timestamp) index of GET /chats/messages beside
    // it, an organization whose only chat is this one could as well be read through that index.
    await prisma.$executeRawUnsafe(
      `INSERT INTO messages (org_id, phone_id, chat_id, message_id, unique_id, org_phone, sender_phone, from_me, body, message_type, "timestamp")
       SELECT $1::uuid, $2, (1000000 + g % 300)::text || '@c.us', 'false_other_V' || g, 'V' || g, $3, 'x@c.us', false, 'body ' || g, 'chat', now() - g * interval '1 second'
       FROM generate_series(1, 30000) g`,
      w.org.id,
      w.p1.phone_id,
      w.p1.org_phone,
    );
    await prisma.$executeRawUnsafe('ANALYZE messages');
    const plan = async (phoneFilter: string) => {
      const [row] = await prisma.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(
        `EXPLAIN (FORMAT JSON) SELECT * FROM messages WHERE org_id = $1::uuid AND chat_id = $2 ${phoneFilter}
         ORDER BY "timestamp" DESC, id DESC LIMIT 2000 OFFSET 0`,
        w.org.id,
        chat,
      );
      return JSON.stringify(row['QUERY PLAN']);
    };
    // the phone filter as the repository writes it (message-repository.ts, inPhones)
    for (const text of [
      await plan(''),
      await plan(`AND phone_id = ANY(ARRAY['${w.p1.phone_id}']::text[])`),
      await plan(`AND phone_id = ANY(ARRAY['${w.p1.phone_id}', '${w.p2.phone_id}']::text[])`),
    ]) {
      expect(text).toMatch(/"Node Type":"Index Scan"/);
      expect(text).toMatch(/messages_org_chat_recent_idx/);
      expect(text).not.toMatch(/"Node Type":"Sort"/);
    }
    const rows = await repo.listByChat(w.org.id, { chatId: chat, phoneIds: null, offset: 0, limit: 2000 });
    expect(rows).toHaveLength(2000);
    expect(rows[0].unique_id).toBe('U1');
    // deep pages (deferred join) give exactly the rows plain paging would
    const deep = await repo.listByChat(w.org.id, { chatId: chat, phoneIds: [w.p1.phone_id], offset: 5_000, limit: 300 });
    expect(deep.map((r) => r.unique_id)).toEqual(Array.from({ length: 300 }, (_, i) => `U${5_001 + i}`));
    expect(await repo.listByChat(w.org.id, { chatId: chat, phoneIds: null, offset: 40_000, limit: 10 })).toEqual([]);
    expect(await repo.listByChat(w.other.id, { chatId: chat, phoneIds: null, offset: 5_000, limit: 10 })).toEqual([]);
  });

  it('reads each row as Prisma would give it: every column, JSON and timestamps to the millisecond', async () => {
    const chat = `${randomDigits()}@c.us`;
    const [made] = await createMessages(prisma, w.org, w.p1, [{ chatId: chat, timestamp: new Date(Date.UTC(2026, 4, 1, 10, 0, 0, 123)) }]);
    await prisma.message.updateMany({
      where: { org_id: w.org.id, message_id: made.message_id },
      data: {
        media: { path: 'x/y.jpg', mimetype: 'image/jpeg', size: 12 },
        vcards: ['BEGIN:VCARD'],
        prev_body: 'before',
        updated_at: new Date(Date.UTC(2026, 4, 2, 0, 0, 0, 7)),
      },
    });
    const {
      id: _id,
      phone_id: _phone,
      ...expected
    } = await prisma.message.findFirstOrThrow({ where: { org_id: w.org.id, message_id: made.message_id } });
    const [listed] = await repo.listByChat(w.org.id, { chatId: chat, phoneIds: null, offset: 0, limit: 10 });
    const [all] = await repo.listAll(w.org.id, {
      phoneIds: [w.p1.phone_id],
      start: '2026-05-01T10:00:00.123Z',
      end: '2026-05-01T10:00:00.123Z',
      offset: 0,
      limit: 10,
    });
    const byId = await repo.byIds(w.org.id, [String(_id)]);
    for (const row of [listed, all, byId.get(String(_id))]) expect(row).toEqual(expected);
    expect(await repo.byIds(w.other.id, [String(_id)])).toEqual(new Map());
  });
});
