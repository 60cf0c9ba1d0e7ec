import { ListChatMessagesResponse, MessageSchema, ReadyJson } from '@mapi/contracts';
import { Prisma, createPrismaClient, queryRows, type PrismaClient } from '@mapi/db';
import { createMessages, createTwoPhoneOrgAndOther, randomDigits, testEnv, type MessageSeed } from '@mapi/testing';
import { mapMessage } from '../messages/map-message';
import { DEFERRED_JOIN_FROM_OFFSET, MessageRepository, chatPageSql, type ChatPage } from '../repositories/message-repository';
import { ListChatMessages } from '../usecases/list-chat-messages/list-chat-messages.usecase';

/**
 * Postgres's message object (message-api-sql.ts, read by listByChatReady for GET messages) against
 * mapMessage's over the same stored rows: byte for byte as JSON.stringify writes mapMessage's, for
 * every kind of message and every odd value a column can hold, on both SQL forms of a page — and the
 * whole answer of GET messages (ReadyJson) against JSON.stringify of the mapped page.
 */
describe('the message object built by Postgres = mapMessage (integration)', () => {
  let prisma: PrismaClient;
  let repo: MessageRepository;
  const w: Record<string, any> = {};
  const at = (iso: string) => new Date(iso);
  const odd = 'quote " backslash \\ slash / tab \t newline \n nul-free \u0001 \u001f \u007f \u2028 \u2029 é 中文 😀';

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
        dimensions: { ar: 1.5, height: 800, width: 1200 },
        size: 123,
        tiny: 1e-7,
        big: 1e21,
        path: 'https://x/a.jpg',
      },
    },
    { has_reaction: true, ack: 0 },
    { has_quoted_msg: true, quoted_message_id: 'true_1@c.us_ABC', message_type: 'chat' },
    {
      message_ticket_id: 'ticket-1',
      performed_by: 'agent@example.com',
      flag_status: true,
      flag_response_time: 0.30000000000000004,
      flag_metadata: { by: 'x', at: [1, 2.5] },
    },
    { prev_body: 'before the edit', body: 'after the edit', updated_at: at('2026-03-01T10:00:00.999Z') },
    { is_deleted: true, body: null, fts: null, message_type: 'revoked' },
    { broadcast: true, broadcast_id: 'b-1', is_status: true, author: '3@c.us', forwarding_score: 4, is_forwarded: true },
    { vcards: ['BEGIN:VCARD\nFN:A\nEND:VCARD', 1, null, { a: 1 }, 'second'], message_type: 'vcard' },
    { vcards: [] },
    { vcards: { not: 'an array' } },
    { vcards: Prisma.JsonNull, media: Prisma.JsonNull, raw_data: Prisma.JsonNull },
    { delivery_info: { delivered_count: 2, read_count: 1, pending: [], delivered: { '10': 1, '2': 2, 'a@c.us': 3 }, read: {} } },
    {
      sent_message_id: '0b7f6c9e-1111-4a4a-9b9b-123456789abc',
      from_me: true,
      device_type: 'web',
      duration: '12',
      is_gif: true,
      is_ephemeral: false,
      is_starred: true,
    },
    {
      interactive: { buttons: [{ id: 'b', text: 'Yes' }] },
      invite_v4: { code: 'x' },
      links: [{ link: 'https://x' }],
      location: { latitude: 1.25, longitude: -3 },
      order_id: 'o-1',
      poll_info: { options: ['a', 'b'] },
      poll_results: { a: 1 },
      raw_data: { deep: { deeper: [null, true, 'x'] } },
      token: 't',
      from: '1@c.us',
      to: '2@c.us',
    },
    { body: '', fts: '', timestamp: at('0999-01-02T03:04:05.678Z'), updated_at: at('0999-01-02T03:04:05.006Z') },
    { timestamp: at('2100-12-31T23:59:59.999Z'), updated_at: at('2100-12-31T23:59:59.999Z') },
    // values Postgres writes otherwise than JavaScript: left to JSON.parse + JSON.stringify (row not ok)
    { flag_metadata: { kept: null, nested: { also: null } }, poll_info: [null, 1] },
    { interactive: { b: 1, '7': 2, '10': 3 } },
    { location: { latitude: 12345678.123456789, longitude: 9007199254740992 } },
    { flag_response_time: 1e15 },
    { flag_response_time: 1e-5 },
    { flag_response_time: -0 },
    // values the fast path writes itself (row ok)
    { flag_response_time: 0, raw_data: { ar: 0.75, height: 1600, neg: -2.5, small: 0.0001, list: [1, 'two', true, false, [], {}] } },
    { flag_response_time: 123456789012345, links: [{ link: 'https://example.com/a.b?c=1', isSuspicious: false }] },
    { flag_response_time: 0.0001, raw_data: { s: 'a "quoted": null, \\ "9": x', n: 123456789012345 } },
    // float8 values JSON has no number for (stored below with raw SQL): null, as JSON.stringify writes them
    { order_id: 'float8:NaN' },
    { order_id: 'float8:Infinity' },
    { order_id: 'float8:-Infinity' },
  ];
  /** Kinds Postgres cannot vouch for (their rows go through JSON.parse + JSON.stringify); every other kind's text is sent as it is. */
  const slowKinds = new Set([1, 4, 12, 17, 18, 19, 20, 21, 25]);
  /** -0: Postgres may hold 0 or -0 (the driver's choice); the bytes are checked, not the path. */
  const eitherKinds = new Set([22]);
  const timestampOf = (i: number) => (kinds[i]?.timestamp as Date | undefined)?.valueOf() ?? Date.UTC(2026, 1, 1, 0, 0, i, 123);

  beforeAll(async () => {
    prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
    repo = new MessageRepository(prisma);
    Object.assign(w, await createTwoPhoneOrgAndOther(prisma));
    w.chat = `${randomDigits()}@c.us`;
    await createMessages(
      prisma,
      w.org,
      w.p1,
      kinds.map((overrides, i) => ({ chatId: w.chat, timestamp: new Date(Date.UTC(2026, 1, 1, 0, 0, i, 123)), overrides })),
    );
    await createMessages(
      prisma,
      w.org,
      w.p2,
      kinds.map((overrides, i) => ({ chatId: w.chat, timestamp: new Date(Date.UTC(2026, 1, 2, 0, 0, i)), overrides })),
    );
    await prisma.$executeRaw`UPDATE messages SET flag_response_time = substr(order_id, 8)::float8 WHERE org_id = ${w.org.id}::uuid AND order_id LIKE 'float8:%'`;
    // a number JavaScript cannot hold exactly (both reads round it the same way, through JSON.parse)
    await prisma.$executeRaw`UPDATE messages SET media = media || '{"size": 12345678901234567890}'::jsonb WHERE org_id = ${w.org.id}::uuid AND chat_id = ${w.chat} AND message_type = 'image'`;
    // numeric's scale kept (1.50, 2.0): JavaScript writes 1.5 and 2
    await prisma.$executeRaw`UPDATE messages SET poll_results = '{"a": 1.50, "b": [2.0]}'::jsonb WHERE org_id = ${w.org.id}::uuid AND chat_id = ${w.chat} AND message_ticket_id = 'ticket-1'`;
    await createMessages(prisma, w.other, w.q, [{ chatId: w.chat, body: 'another organization' }]);
    // a chat deeper than DEFERRED_JOIN_FROM_OFFSET, for the other SQL form of a page
    w.deep = `${randomDigits()}@c.us`;
    await prisma.$executeRawUnsafe(
      `INSERT INTO messages (org_id, phone_id, chat_id, message_id, unique_id, org_phone, sender_phone, from_me, body, message_type, "timestamp", vcards)
       SELECT $1::uuid, $2, $3, 'false_' || $3 || '_U' || g, 'U' || g, $4, $3, g % 2 = 0, 'body ' || g, 'chat', now() - g * interval '1.5 second',
              CASE WHEN g % 3 = 0 THEN jsonb_build_array('v' || g, g) END
       FROM generate_series(1, ${DEFERRED_JOIN_FROM_OFFSET + 50}) g`,
      w.org.id,
      w.p1.phone_id,
      w.deep,
      w.p1.org_phone,
    );
  });

  afterAll(() => prisma?.$disconnect());

  /** Both reads of one page: JSON.stringify of mapMessage over the stored rows, and Postgres's texts as the service sends them. */
  const both = async (orgId: string, page: ChatPage) => {
    const mapped = (await repo.listByChat(orgId, page)).map((row) => JSON.stringify(mapMessage(row)));
    const built = await repo.listByChatReady(orgId, page);
    return { mapped, built };
  };

  it('gives every kind of message byte for byte as JSON.stringify of mapMessage does, each valid against the contract', async () => {
    const { mapped, built } = await both(w.org.id, { chatId: w.chat, phoneIds: null, offset: 0, limit: 2000 });
    expect(built).toHaveLength(kinds.length * 2);
    for (let i = 0; i < mapped.length; i++) expect(built[i]).toBe(mapped[i]);
    for (const text of built) expect(MessageSchema.safeParse(JSON.parse(text)).error?.issues ?? []).toEqual([]);
    // the odd values really were read (not all null): a vcards filter, a timestamp of year 999, the odd text
    const objects = built.map((t) => JSON.parse(t));
    expect(objects.map((m) => m.vcards).filter((v) => v && v.length)).toContainEqual(['BEGIN:VCARD\nFN:A\nEND:VCARD', 'second']);
    expect(objects.map((m) => m.timestamp)).toContain('0999-01-02T03:04:05+00:00');
    expect(objects.map((m) => m.updated_at)).toContain('2100-12-31T23:59:59.999+00:00');
    expect(objects.map((m) => m.body)).toContain(odd);
  });

  it('writes a NaN, Infinity or -Infinity flag_response_time as null, as JSON.stringify of mapMessage over the row Prisma reads does', async () => {
    const stored = await prisma.message.findMany({
      where: { org_id: w.org.id, order_id: { startsWith: 'float8:' } },
      orderBy: [{ timestamp: 'desc' }, { id: 'desc' }],
    });
    expect(stored.map((r) => r.flag_response_time)).toEqual([-Infinity, Infinity, NaN, -Infinity, Infinity, NaN]);
    const built = (await repo.listByChatReady(w.org.id, { chatId: w.chat, phoneIds: null, offset: 0, limit: 2000 })).filter((text) =>
      JSON.parse(text).order_id?.startsWith('float8:'),
    );
    expect(built).toEqual(stored.map((r) => JSON.stringify(mapMessage(r))));
    expect(built.map((text) => JSON.parse(text).flag_response_time)).toEqual([null, null, null, null, null, null]);
  });

  it("writes the same message objects on the `api` shape (the benches')", async () => {
    const page = { chatId: w.chat, phoneIds: null, offset: 0, limit: 2000 };
    const rows = await queryRows<{ j: string }>(prisma, chatPageSql(w.org.id, page, 'api') as Prisma.Sql);
    const { mapped } = await both(w.org.id, page);
    expect(rows.map((r) => JSON.parse(r.j))).toEqual(mapped.map((text) => JSON.parse(text)));
  });

  it('writes the common kinds itself (ok: its text is the answer as it is), leaving only the odd values to JSON.parse + JSON.stringify', async () => {
    const sql = chatPageSql(w.org.id, { chatId: w.chat, phoneIds: [w.p1.phone_id], offset: 0, limit: 2000 }, 'ready');
    const rows = await queryRows<{ j: string; ok: boolean }>(prisma, sql as Prisma.Sql);
    // newest first: the kinds by timestamp, descending
    const kindOfRow = kinds.map((_, i) => i).sort((a, b) => timestampOf(b) - timestampOf(a));
    expect(rows).toHaveLength(kinds.length);
    const slow = rows.flatMap((r, n) => (r.ok || eitherKinds.has(kindOfRow[n]) ? [] : [kindOfRow[n]]));
    expect(slow.sort((a, b) => a - b)).toEqual([...slowKinds]);
  });

  it("answers GET messages' large pages (ReadyJson) with the bytes JSON.stringify gives for the mapped page", async () => {
    const useCase = new ListChatMessages(repo);
    const ctx = { org_id: w.org.id, token_id: '6d0f8a5e-7b8c-4c1d-9e2f-0a1b2c3d4e5f', phone_scope: null, phone: null };
    for (const [chatId, offset, limit] of [
      [w.chat, 0, 2000],
      [w.chat, 3, 101],
      [w.chat, 500, 200],
      [w.deep, DEFERRED_JOIN_FROM_OFFSET + 5, 1000],
    ] as const) {
      const answer = await useCase.execute({ ctx, params: { chat_id: chatId }, query: { offset, limit } });
      expect(answer).toBeInstanceOf(ReadyJson);
      const rows = await repo.listByChat(w.org.id, { chatId, phoneIds: null, offset, limit });
      const count = rows.length;
      const expected = JSON.stringify({ from: count ? offset + 1 : offset, to: offset + count, count, messages: rows.map(mapMessage) });
      expect(Buffer.from((answer as ReadyJson).json).toString('utf8')).toBe(expected);
      expect(ListChatMessagesResponse.safeParse(JSON.parse(expected)).error?.issues ?? []).toEqual([]);
    }
  });

  it('reads the same page on the deferred-join form (offset past DEFERRED_JOIN_FROM_OFFSET)', async () => {
    const page = { chatId: w.deep, phoneIds: null, offset: DEFERRED_JOIN_FROM_OFFSET + 10, limit: 30 };
    const { mapped, built } = await both(w.org.id, page);
    expect(built).toHaveLength(30);
    expect(built).toEqual(mapped);
    const first = await both(w.org.id, { ...page, offset: 0, limit: 40 });
    expect(first.built).toEqual(first.mapped);
  });

  it("narrows to the phones in reach and never reads another organization's copy of the chat", async () => {
    const scoped = await both(w.org.id, { chatId: w.chat, phoneIds: [w.p2.phone_id], offset: 0, limit: 2000 });
    expect(scoped.built).toHaveLength(kinds.length);
    expect(scoped.built).toEqual(scoped.mapped);
    const others = (await repo.listByChatReady(w.other.id, { chatId: w.chat, phoneIds: null, offset: 0, limit: 2000 })).map((t) =>
      JSON.parse(t),
    );
    expect(others.map((m) => m.body)).toEqual(['another organization']);
    expect(await repo.listByChatReady(w.org.id, { chatId: w.chat, phoneIds: [w.q.phone_id], offset: 0, limit: 2000 })).toEqual([]);
    expect(await repo.listByChatReady(w.org.id, { chatId: w.chat, phoneIds: [], offset: 0, limit: 2000 })).toEqual([]);
  });
});
