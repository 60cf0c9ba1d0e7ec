import { MessageSchema, pagePositions, ReadyJson, type ListAllMessagesRequest } from '@mapi/contracts';
import { Prisma, createPrismaClient, type PrismaClient } from '@mapi/db';
import {
  createChat,
  createMessages,
  createOrg,
  createPhone,
  createTwoPhoneOrgAndOther,
  randomDigits,
  testEnv,
  type MessageSeed,
} from '@mapi/testing';
import { mapMessage } from '../messages/map-message';
import { ListAllMessages } from '../usecases/list-all-messages/list-all-messages.usecase';
import { SQL_BUILT_PAGES_FROM } from '../messages/ready-messages-page';
import { DEFERRED_JOIN_FROM_OFFSET, MessageRepository, type OrgPage } from './message-repository';

/**
 * GET /chats/messages reads a page over SQL_BUILT_PAGES_FROM as the texts Postgres writes
 * (message-api-sql.ts; MessageRepository.listAllReady) and sends them joined (ReadyJson). Held here,
 * byte for byte, to JSON.stringify of mapMessage over the stored rows (listAll, the read smaller pages
 * still use), for every kind of message and odd value, on both SQL forms of a page, phones in reach
 * and organizations apart.
 */
describe('GET /chats/messages: Postgres-written messages = mapMessage (integration)', () => {
  let prisma: PrismaClient;
  let messages: MessageRepository;
  const w: Record<string, any> = {};
  const odd = 'quote " backslash \\ slash / tab \t newline \n \u0001 \u001f \u007f \u2028 \u2029 é 中文 😀';

  const kinds: MessageSeed['overrides'][] = [
    { body: odd, fts: odd, message_type: 'chat', ack: 3, mentioned_ids: ['1@c.us', '2@c.us'] },
    {
      message_type: 'image',
      has_media: true,
      media_key: 'k',
      ack: -1,
      media: {
        filename: 'a.jpg',
        mimetype: 'image/jpeg',
        thumbnail: 'https://x/a-thumb.jpg',
        path: 'https://x/a.jpg',
        dimensions: { ar: 1.5, height: 800, width: 1200 },
        size: 123,
        tiny: 1e-7,
        big: 1e21,
      },
    },
    { message_ticket_id: 'ticket-1', flag_status: true, flag_response_time: 0.30000000000000004, flag_metadata: { by: 'x', at: [1, 2.5] } },
    { prev_body: 'before the edit', body: 'after the edit', updated_at: new Date('2026-03-01T10:00:00.999Z') },
    { is_deleted: true, body: null, fts: null, message_type: 'revoked' },
    { vcards: ['BEGIN:VCARD\nFN:A\nEND:VCARD', 1, null, { a: 1 }, 'second'], message_type: 'vcard' },
    { vcards: Prisma.JsonNull, media: Prisma.JsonNull, raw_data: Prisma.JsonNull },
    {
      delivery_info: { delivered_count: 2, read_count: 1, pending: [], delivered: { '10': 1, '2': 2, 'a@c.us': 3 }, read: {} },
      raw_data: { deep: { deeper: [null, true, 'x'] } },
    },
    { body: '', fts: '', timestamp: new Date('0999-01-02T03:04:05.678Z'), updated_at: new Date('0999-01-02T03:04:05.006Z') },
    // float8 values JSON has no number for (stored below with raw SQL): null, as JSON.stringify writes them
    { order_id: 'float8:NaN' },
    { order_id: 'float8:Infinity' },
    { order_id: 'float8:-Infinity' },
  ];
  // one chat per kind on p1 (its latest message is that kind), the same chats on p2 a second later
  const chatOf = (i: number) => `${w.base}${i}@c.us`;
  const stamp = (i: number, phone: number) => new Date(Date.UTC(2026, 1, 1 + phone, 0, 0, i, 123));

  beforeAll(async () => {
    prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
    messages = new MessageRepository(prisma);
    Object.assign(w, await createTwoPhoneOrgAndOther(prisma));
    w.base = randomDigits(8);
    await createMessages(
      prisma,
      w.org,
      w.p1,
      kinds.map((overrides, i) => ({ chatId: chatOf(i), timestamp: stamp(i, 0), overrides })),
    );
    await createMessages(
      prisma,
      w.org,
      w.p2,
      kinds.slice(0, 4).map((overrides, i) => ({ chatId: chatOf(i), timestamp: stamp(i, 1), overrides })),
    );
    await prisma.$executeRaw`UPDATE messages SET media = media || '{"size": 12345678901234567890}'::jsonb WHERE org_id = ${w.org.id}::uuid AND message_type = 'image'`;
    await prisma.$executeRaw`UPDATE messages SET flag_response_time = substr(order_id, 8)::float8 WHERE org_id = ${w.org.id}::uuid AND order_id LIKE 'float8:%'`;
    for (let i = 0; i < kinds.length; i++) await createChat(prisma, w.org, w.p1, { chatId: chatOf(i) });
    for (let i = 0; i < 4; i++) await createChat(prisma, w.org, w.p2, { chatId: chatOf(i) });
    // another organization's message: never on our pages
    await createMessages(prisma, w.other, w.q, [{ chatId: chatOf(0), body: 'another organization', timestamp: stamp(0, 3) }]);
    // an organization with more messages than DEFERRED_JOIN_FROM_OFFSET, for the other SQL form of a page
    w.deepOrg = await createOrg(prisma);
    w.d = await createPhone(prisma, w.deepOrg.id);
    await prisma.$executeRawUnsafe(
      `INSERT INTO messages (org_id, phone_id, chat_id, message_id, unique_id, org_phone, sender_phone, from_me, body, message_type, "timestamp", vcards)
       SELECT $1::uuid, $2, 'c' || (g % 7) || '@c.us', 'false_c_U' || g, 'U' || g, $3, 'c@c.us', g % 2 = 0, 'body ' || g, 'chat', now() - (g / 3) * interval '1.5 second',
              CASE WHEN g % 3 = 0 THEN jsonb_build_array('v' || g, g) END
       FROM generate_series(1, ${DEFERRED_JOIN_FROM_OFFSET + 50}) g`,
      w.deepOrg.id,
      w.d.phone_id,
      w.d.org_phone,
    );
  });

  afterAll(() => prisma?.$disconnect());

  describe("the organization's page (GET /chats/messages)", () => {
    /** The page both ways: JSON.stringify of mapMessage over listAll's rows, and the texts Postgres wrote (as they are sent). */
    const both = async (orgId: string, page: OrgPage) => ({
      mapped: (await messages.listAll(orgId, page)).map((row) => JSON.stringify(mapMessage(row))),
      built: await messages.listAllReady(orgId, page),
    });

    it('gives every kind of message byte for byte as mapMessage does', async () => {
      const { mapped, built } = await both(w.org.id, { phoneIds: null, offset: 0, limit: 2000 });
      expect(built).toHaveLength(kinds.length + 4);
      expect(built).toEqual(mapped);
      expect(built.map((t) => JSON.parse(t).body)).toContain(odd);
      const floats = await prisma.message.findMany({
        where: { org_id: w.org.id, order_id: { startsWith: 'float8:' } },
        select: { flag_response_time: true },
      });
      expect(floats.map((r) => r.flag_response_time).sort()).toEqual([-Infinity, Infinity, NaN].sort());
      expect(
        built
          .map((t) => JSON.parse(t))
          .filter((m) => m.order_id?.startsWith('float8:'))
          .map((m) => m.flag_response_time),
      ).toEqual([null, null, null]);
      for (const text of built) expect(MessageSchema.safeParse(JSON.parse(text)).error?.issues ?? []).toEqual([]);
    });

    it('narrows by time and phones, reads the same on the deferred-join form, and keeps organizations apart', async () => {
      const timed = { phoneIds: null, start: stamp(2, 0).toISOString(), end: stamp(1, 1).toISOString(), offset: 1, limit: 5 };
      const t = await both(w.org.id, timed);
      expect(t.built).toHaveLength(5);
      expect(t.built).toEqual(t.mapped);
      const scoped = await both(w.org.id, { phoneIds: [w.p2.phone_id], offset: 0, limit: 2000 });
      expect(scoped.built).toHaveLength(4);
      expect(scoped.built).toEqual(scoped.mapped);
      const deep = await both(w.deepOrg.id, { phoneIds: null, offset: DEFERRED_JOIN_FROM_OFFSET + 10, limit: 30 });
      expect(deep.built).toHaveLength(30);
      expect(deep.built).toEqual(deep.mapped);
      expect((await messages.listAllReady(w.other.id, { phoneIds: null, offset: 0, limit: 2000 })).map((t) => JSON.parse(t).body)).toEqual([
        'another organization',
      ]);
      expect(await messages.listAllReady(w.org.id, { phoneIds: [w.q.phone_id], offset: 0, limit: 2000 })).toEqual([]);
      expect(await messages.listAllReady(w.org.id, { phoneIds: [], offset: 0, limit: 2000 })).toEqual([]);
    });

    it('answers a page over SQL_BUILT_PAGES_FROM as ReadyJson: the bytes JSON.stringify writes of the mapped page; smaller ones mapped', async () => {
      const useCase = new ListAllMessages(messages);
      const ctx = {
        org_id: w.org.id,
        token_id: '00000000-0000-4000-8000-000000000000',
        phone_scope: null,
        phone: null,
        member: null,
      } as unknown as ListAllMessagesRequest['ctx'];
      const query = (limit: number, offset = 0) => ({ limit, offset }) as ListAllMessagesRequest['query'];
      const expected = async (limit: number, offset = 0) => {
        const rows = (await messages.listAll(w.org.id, { phoneIds: null, offset, limit })).map(mapMessage);
        return JSON.stringify({ ...pagePositions(offset, rows.length), messages: rows });
      };
      const big = await useCase.execute({ ctx, query: query(SQL_BUILT_PAGES_FROM + 1) });
      expect(big).toBeInstanceOf(ReadyJson);
      expect(Buffer.from((big as ReadyJson).json).toString('utf8')).toBe(await expected(SQL_BUILT_PAGES_FROM + 1));
      const past = await useCase.execute({ ctx, query: query(SQL_BUILT_PAGES_FROM + 1, 50) });
      expect(Buffer.from((past as ReadyJson).json).toString('utf8')).toBe(await expected(SQL_BUILT_PAGES_FROM + 1, 50)); // an empty page: from = to = offset
      const small = await useCase.execute({ ctx, query: query(SQL_BUILT_PAGES_FROM) });
      expect(small).not.toBeInstanceOf(ReadyJson);
      expect(JSON.stringify(small)).toBe(await expected(SQL_BUILT_PAGES_FROM));
    });
  });
});
