import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createTwoPhoneOrgAndOther, randomDigits, testEnv } from '@mapi/testing';
import { mapMessage } from '../messages/map-message';
import { MessageRepository } from '../repositories/message-repository';

/**
 * The message object has two writers: mapMessage (over Prisma's row) and Postgres (message-api-sql.ts,
 * for GET messages' pages). message-api-sql.int-spec.ts holds them equal on chosen odd values; this
 * one on rows it makes up: every column of `messages`, as information_schema gives it, filled from
 * a seeded generator by its type (null where the column allows it), so a column added to the table
 * is covered without anyone listing it. Any difference in any byte fails, with the seed to replay it.
 */
const SEED = Number(process.env.MESSAGE_FUZZ_SEED ?? Date.now() % 1_000_000);
const ROWS = 300;

/** mulberry32: small, seeded, good enough to pick values. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  return { next, pick };
}

const TEXTS = [
  '',
  'a',
  'hello world',
  'quote " backslash \\ slash /',
  'tab \t newline \n',
  '\u0001\u001f\u007f',
  '\u2028\u2029',
  'é 中文 😀',
  '1@c.us',
  'null',
  '0',
  '[]',
];
const NUMBERS = [0, 1, -1, 2.5, -0.75, 0.1 + 0.2, 1e-7, 1e21, 123456789012345, 9007199254740991, 0.0001, 1600];

interface Column {
  name: string;
  type: string;
  nullable: boolean;
}

function valueFor(g: ReturnType<typeof generator>, column: Column, depth = 0): unknown {
  if (column.nullable && g.next() < 0.25) return null;
  const json = (d: number): unknown => {
    const r = g.next();
    if (d > 2 || r < 0.4) return g.pick<unknown>([null, true, false, g.pick(TEXTS), g.pick(NUMBERS), Math.floor(g.next() * 1000)]);
    if (r < 0.7) return Array.from({ length: Math.floor(g.next() * 4) }, () => json(d + 1));
    const keys = ['a', 'b', '10', '2', 'ar', 'height', 'é', 'path', 'filename', 'size'];
    return Object.fromEntries(Array.from({ length: Math.floor(g.next() * 4) }, () => [g.pick(keys), json(d + 1)]));
  };
  switch (column.type) {
    case 'text':
    case 'varchar':
      return g.pick(TEXTS) + (g.next() < 0.5 ? '' : String(Math.floor(g.next() * 1e6)));
    case 'bool':
      return g.next() < 0.5;
    case 'int2':
      return Math.floor(g.next() * 7) - 2;
    case 'int4':
    case 'int8':
      return g.pick([0, 1, -1, 42, 2147483647]);
    case 'float8':
    case 'float4':
      return g.pick(NUMBERS);
    case 'timestamptz':
    case 'timestamp':
      return new Date(Date.UTC(1000 + Math.floor(g.next() * 1100), 0, 1) + Math.floor(g.next() * 31_536_000_000)).toISOString();
    case 'jsonb':
    case 'json': {
      const value = json(depth);
      // a JSON null is SQL NULL to jsonb_populate_recordset
      return value === null && !column.nullable ? {} : value;
    }
    case 'uuid':
      return g.pick([
        '0b7f6c9e-1111-4a4a-9b9b-123456789abc',
        '00000000-0000-4000-8000-000000000000',
        'ffffffff-ffff-4fff-bfff-ffffffffffff',
      ]);
    case 'tsvector':
      return g.pick(TEXTS.filter((t) => /^[a-z ]+$/.test(t)));
    case '_text':
      return Array.from({ length: Math.floor(g.next() * 3) }, () => g.pick(TEXTS));
    default:
      throw new Error(`no generator for column ${column.name} of type ${column.type}: add one`);
  }
}

describe(`the message object built by Postgres = mapMessage, on generated rows (seed ${SEED})`, () => {
  let prisma: PrismaClient;
  let repo: MessageRepository;
  const w: Record<string, any> = {};

  beforeAll(async () => {
    prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
    repo = new MessageRepository(prisma);
    Object.assign(w, await createTwoPhoneOrgAndOther(prisma));
    w.chat = `${randomDigits()}@c.us`;
    const columns = await prisma.$queryRaw<Column[]>`
      SELECT column_name AS name, udt_name AS type, is_nullable = 'YES' AS nullable
      FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'messages' ORDER BY ordinal_position`;
    // the row's identity and place are the test's; everything else is made up
    const fixed = new Set(['id', 'org_id', 'phone_id', 'chat_id', 'message_id', 'unique_id', 'timestamp']);
    w.columns = columns.filter((c) => !fixed.has(c.name));
    const g = generator(SEED);
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      ...Object.fromEntries((w.columns as Column[]).map((c) => [c.name, valueFor(g, c)])),
      org_id: w.org.id,
      phone_id: w.p1.phone_id,
      chat_id: w.chat,
      message_id: `gen_${w.chat}_${i}`,
      unique_id: `GEN${i}`,
      timestamp: new Date(Date.UTC(2026, 1, 1) + i * 1000).toISOString(),
    }));
    const names = ['org_id', 'phone_id', 'chat_id', 'message_id', 'unique_id', 'timestamp', ...(w.columns as Column[]).map((c) => c.name)];
    const list = names.map((n) => `"${n}"`).join(', ');
    await prisma.$executeRawUnsafe(
      `INSERT INTO messages (${list}) SELECT ${list} FROM jsonb_populate_recordset(NULL::messages, $1::jsonb)`,
      JSON.stringify(rows),
    );
  });

  afterAll(() => prisma?.$disconnect());

  it('fills every column of the table (a column without a generator fails here)', () => {
    expect((w.columns as Column[]).length).toBeGreaterThan(40);
  });

  // (not checked against the contract: made-up JSON columns hold shapes ingestion never writes;
  // message-api-sql.int-spec.ts checks the contract on realistic rows)
  it('writes every generated row byte for byte as JSON.stringify of mapMessage does', async () => {
    const page = { chatId: w.chat, phoneIds: null, offset: 0, limit: 2000 };
    const mapped = (await repo.listByChat(w.org.id, page)).map((row) => JSON.stringify(mapMessage(row)));
    const built = await repo.listByChatReady(w.org.id, page);
    expect(built).toHaveLength(ROWS);
    const differing = built.flatMap((text, i) => (text === mapped[i] ? [] : [{ postgres: text, mapMessage: mapped[i] }]));
    expect(differing.slice(0, 3)).toEqual([]);
    // the rows really vary: many distinct bodies, nulls and JSON values among them
    const objects = built.map((t) => JSON.parse(t) as Record<string, unknown>);
    expect(new Set(objects.map((m) => m.body)).size).toBeGreaterThan(50);
    expect(objects.some((m) => m.media === null) && objects.some((m) => m.media !== null)).toBe(true);
  });
});
