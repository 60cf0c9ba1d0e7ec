// Unit tests of the drift comparison (no database): both outcomes of the check, from Prisma schemas.
import { compareShapes, expectedShape, getDatamodel, type SchemaShape } from '.';
import { readSchemaText as readSchemaFiles } from '../../schema-files';
import { readSchemaText } from './schema-text';
import { canonicalDefault, canonicalLiteral, defaultConstraintName } from './shape';

const schema = readSchemaFiles(__dirname);
const shapeOf = (text: string): SchemaShape => expectedShape(getDatamodel(text), text);
const sorted = (lines: string[]) => [...lines].sort();
const clone = (shape: SchemaShape): SchemaShape => structuredClone(shape);
const table = (shape: SchemaShape, name: string) => {
  const found = shape.tables.find((t) => t.name === name);
  if (!found) throw new Error(`no table ${name}`);
  return found;
};

describe('compareShapes', () => {
  const base = shapeOf(schema);

  it('finds no difference between a schema and itself', () => {
    expect(base.tables.map((t) => t.name)).toEqual(expect.arrayContaining(['api_tokens', 'chats', 'messages', 'organizations', 'phones']));
    expect(compareShapes(base, clone(base))).toEqual([]);
  });

  it('fails when the schema has a field the database lacks, and the other way round', () => {
    const withExtra = shapeOf(schema.replace(/(model Chat \{\n)/, '$1  muted Boolean @default(false)\n'));
    expect(sorted(compareShapes(withExtra, base))).toEqual(
      sorted(['table chats: column muted: missing from the database (schema: boolean NOT NULL DEFAULT false)']),
    );
    expect(sorted(compareShapes(base, withExtra))).toEqual(
      sorted(['table chats: column muted: exists in the database (boolean NOT NULL DEFAULT false) but not in the schema']),
    );
  });

  it('reports type, nullability and default differences', () => {
    const db = clone(base);
    const columns = table(db, 'messages').columns;
    const col = (name: string) => columns.find((c) => c.name === name) ?? fail(name);
    col('ack').type = 'integer';
    col('body').notNull = true;
    col('delivery_info').default = `'{}'`;
    col('mentioned_ids').type = 'text';
    expect(sorted(compareShapes(base, db))).toEqual(
      sorted([
        'table messages: column body: nullability differs: schema nullable, database NOT NULL',
        'table messages: column ack: type differs: schema smallint, database integer',
        `table messages: column delivery_info: default differs: schema '{"delivered_count":0,"pending":[],"read_count":0}', database '{}'`,
        'table messages: column mentioned_ids: type differs: schema text[], database text',
      ]),
    );
  });

  it('reports index order (DESC), uniqueness, names and missing or extra indexes', () => {
    const db = clone(base);
    const index = (t: string, name: string) => table(db, t).indexes.find((i) => i.name === name) ?? fail(name);
    index('webhook_attempts', 'webhook_attempts_subscription_id_attempted_at_idx').columns = ['subscription_id', 'attempted_at'];
    index('messages', 'messages_phone_id_message_id_key').unique = false;
    table(db, 'chats').indexes[0].name = 'chats_by_org';
    table(db, 'api_tokens').indexes.pop();
    table(db, 'phones').indexes.push({ name: 'phones_extra', unique: false, method: 'btree', where: null, columns: ['wa_state'] });
    expect(sorted(compareShapes(base, db))).toEqual(
      sorted([
        'table api_tokens: index api_tokens_org_id_idx: missing from the database (schema: (org_id))',
        'table phones: index phones_extra: exists in the database ((wa_state)) but not in the schema',
        'table chats: index chats_org_id_chat_id_idx: named chats_by_org in the database (same definition: (org_id, chat_id))',
        'table webhook_attempts: index webhook_attempts_subscription_id_attempted_at_idx differs: schema (subscription_id, attempted_at DESC), database (subscription_id, attempted_at)',
        'table messages: index messages_phone_id_message_id_key differs: schema UNIQUE (phone_id, message_id), database (phone_id, message_id)',
      ]),
    );
  });

  it('reports primary key and foreign key differences', () => {
    const db = clone(base);
    table(db, 'chats').primaryKey = { name: 'chats_pkey', columns: ['chat_id', 'phone_id'] };
    table(db, 'phones').foreignKeys[0].onDelete = 'RESTRICT';
    table(db, 'api_tokens').foreignKeys = [];
    expect(sorted(compareShapes(base, db))).toEqual(
      sorted([
        'table api_tokens: foreign key api_tokens_org_id_fkey: missing from the database (schema: (org_id) -> organizations(id) ON DELETE CASCADE ON UPDATE CASCADE)',
        'table phones: foreign key phones_org_id_fkey differs: schema (org_id) -> organizations(id) ON DELETE CASCADE ON UPDATE CASCADE, database (org_id) -> organizations(id) ON DELETE RESTRICT ON UPDATE CASCADE',
        'table chats: primary key differs: schema chats_pkey (phone_id, chat_id), database chats_pkey (chat_id, phone_id)',
      ]),
    );
  });

  it('reports missing and extra tables and enums, except the migrations table', () => {
    const db = clone(base);
    db.tables = db.tables.filter((t) => t.name !== 'chats');
    db.tables.push({ name: '_prisma_migrations', columns: [], primaryKey: null, indexes: [], foreignKeys: [] });
    db.tables.push({ name: 'leftover', columns: [], primaryKey: null, indexes: [], foreignKeys: [] });
    db.enums.push({ name: 'mood', values: ['happy'] });
    expect(sorted(compareShapes(base, db))).toEqual(
      sorted([
        'table chats: missing from the database (the schema models it)',
        'table leftover: exists in the database but no model maps to it',
        'enum mood: exists in the database but not in the schema',
      ]),
    );
  });
});

describe('expectedShape', () => {
  it('derives Prisma types, list nullability, defaults and default constraint names', () => {
    const shape = shapeOf(schema);
    const tokens = table(shape, 'api_tokens');
    expect(tokens.columns.find((c) => c.name === 'phone_ids')).toEqual({
      name: 'phone_ids',
      type: 'text[]',
      notNull: false,
      default: 'ARRAY[]',
    });
    expect(tokens.columns.find((c) => c.name === 'id')).toEqual({ name: 'id', type: 'uuid', notNull: true, default: 'gen_random_uuid()' });
    expect(tokens.indexes.map((i) => i.name)).toEqual(['api_tokens_token_hash_key', 'api_tokens_org_id_idx']);
    expect(table(shape, 'messages').columns.find((c) => c.name === 'id')).toMatchObject({ type: 'bigint', default: 'autoincrement()' });
    expect(table(shape, 'messages').columns.find((c) => c.name === 'flag_response_time')?.type).toBe('double precision');
  });

  it('includes Unsupported fields, @map names, relation map names and skips FKs with relationMode prisma', () => {
    const text = `datasource db {
  provider     = "postgresql"
  // relationMode = "prisma"
}
model Doc {
  id     Int  @id
  vec    Unsupported("vector(3)")? @map("embedding") // not in DMMF
  ownerId Int @map("owner_id")
  owner  Owner @relation(fields: [ownerId], references: [id], map: "doc_owner")
  @@index([vec])
}
model Owner {
  id   Int   @id
  docs Doc[]
}`;
    const doc = table(shapeOf(text), 'Doc');
    expect(doc.columns.find((c) => c.name === 'embedding')).toEqual({
      name: 'embedding',
      type: 'vector(3)',
      notNull: false,
      default: null,
    });
    expect(doc.indexes[0]).toMatchObject({ name: 'Doc_embedding_idx', columns: ['embedding'] });
    expect(doc.foreignKeys[0]).toMatchObject({ name: 'doc_owner', columns: ['owner_id'], onDelete: 'RESTRICT', onUpdate: 'CASCADE' });
    const prismaMode = text.replace('// relationMode', 'relationMode');
    expect(table(shapeOf(prismaMode), 'Doc').foreignKeys).toEqual([]);
  });

  it("rejects an invalid schema with Prisma's message", () => {
    expect(() => getDatamodel('model X {\n  id Int\n}\n')).toThrow(/Prisma schema is invalid: .*unique criteria/s);
  });
});

describe('helpers', () => {
  it('canonicalDefault normalises what Postgres prints', () => {
    expect(canonicalDefault("'pro'::text", 'text')).toBe("'pro'");
    expect(canonicalDefault("'-1'::integer", 'integer')).toBe('-1');
    expect(canonicalDefault('ARRAY[]::text[]', 'text[]')).toBe('ARRAY[]');
    expect(canonicalDefault("nextval('messages_id_seq'::regclass)", 'bigint')).toBe('autoincrement()');
    expect(canonicalDefault(`'{"b": 1, "a": [2]}'::jsonb`, 'jsonb')).toBe(`'{"a":[2],"b":1}'`);
    expect(canonicalDefault("'2020-01-01 00:00:00'::timestamp without time zone", 'timestamp(3) without time zone')).toBe(
      "'2020-01-01T00:00:00.000Z'",
    );
    expect(canonicalDefault("'2020-01-01 01:00:00+01'::timestamp with time zone", 'timestamp(3) with time zone')).toBe(
      "'2020-01-01T00:00:00.000Z'",
    );
    expect(canonicalLiteral('2020-01-01T00:00:00+00:00', 'timestamp(3) with time zone')).toBe("'2020-01-01T00:00:00.000Z'");
    expect(canonicalDefault("'2020-01-01'::date", 'date')).toBe(canonicalLiteral('2020-01-01T00:00:00+00:00', 'date'));
    expect(canonicalDefault('CURRENT_TIMESTAMP', 'timestamp(3) with time zone')).toBe('CURRENT_TIMESTAMP');
    expect(canonicalDefault(null, 'text')).toBeNull();
  });

  it('defaultConstraintName cuts long names to 63 bytes like Prisma', () => {
    expect(defaultConstraintName('chats', ['org_id', 'chat_id'], 'idx')).toBe('chats_org_id_chat_id_idx');
    expect(defaultConstraintName('chats', ['phone_id', 'chat_id'], 'pkey')).toBe('chats_pkey');
    // Name Prisma's engine generated for this table and columns (fixtures/prisma-engine-oracle.sql).
    expect(
      defaultConstraintName('AVeryLongModelNameThatGoesOnAndOnForeverAndEverMore', ['another_extremely_long_column_name', 'x'], 'idx'),
    ).toBe('AVeryLongModelNameThatGoesOnAndOnForeverAndEverMore_another_idx');
  });

  it('readSchemaText ignores commented-out fields', () => {
    const facts = readSchemaText('model A {\n  id Int @id\n  // v Unsupported("vector(3)")\n}\n');
    expect(facts.unsupported.size).toBe(0);
  });
});

function fail(message: string): never {
  throw new Error(message);
}
