import { join } from 'node:path';
import { ownershipViolations, readOwnedTables, serviceSources } from './table-ownership';

const root = join(__dirname, '..', '..');
const tables = readOwnedTables(join(root, 'prisma', 'schema'));

/**
 * The services whose code must reach only their own tables. Not here: `shared` (libs/events writes
 * the outbox for everyone; libs/db and libs/testing hold no service logic) and `admin`, the operator
 * CLI run like a migration (organizations, tokens, the demo seed), docs/decisions.md "Data ownership".
 */
const SERVICES = [
  'gateway',
  'chats',
  'phones',
  'groups',
  'queue',
  'knowledge-base',
  'webhooks',
  'media',
  'inbox',
  'members',
  'automation',
  'importer',
  'analytics',
];

describe('each service reaches only its own tables', () => {
  it('reads the owner of every table from prisma/schema', () => {
    const owners = Object.fromEntries(tables.map((t) => [t.table, t.owner]));
    expect(owners).toMatchObject({
      phones: 'phones',
      messages: 'chats',
      api_tokens: 'members',
      organizations: 'gateway',
      outbox_events: 'shared',
      media_settings: 'media',
    });
  });

  it('reads the declared readers: the gateway reads api_tokens to authenticate', () => {
    expect(tables.find((t) => t.table === 'api_tokens')?.readers).toEqual(['gateway']);
    expect(tables.find((t) => t.table === 'members')?.readers).toEqual([]);
  });

  it("no service touches another's table", () => {
    const files = serviceSources(root, SERVICES);
    expect(files.length).toBeGreaterThan(100);
    expect(ownershipViolations(files, tables)).toEqual([]);
  });

  it("bites on a planted cross-service read, through Prisma or SQL, and on a reader's write", () => {
    const planted = [
      { path: 'libs/queue-feature/src/planted.ts', scope: 'queue', text: 'await this.prisma.phone.findFirst({ where: { phone_id } });' },
      {
        path: 'libs/chats-feature/src/planted.ts',
        scope: 'chats',
        text: 'prisma.$queryRaw`SELECT p.phone_id FROM chats c JOIN phones p ON p.phone_id = c.phone_id`',
      },
      { path: 'libs/media-feature/src/planted.ts', scope: 'media', text: 'tx.$executeRaw`INSERT INTO outbox_events (id) VALUES (1)`' },
      { path: 'libs/phones-feature/src/fine.ts', scope: 'phones', text: 'await tx.phone.update({}); // reads from phones, in a comment' },
      {
        path: 'libs/gateway-feature/src/reads.ts',
        scope: 'gateway',
        text: 'await this.prisma.apiToken.findUnique({}); prisma.$queryRaw`SELECT 1 FROM api_tokens`',
      },
      { path: 'libs/gateway-feature/src/writes.ts', scope: 'gateway', text: 'await this.prisma.apiToken.update({});' },
      { path: 'libs/gateway-feature/src/writes-sql.ts', scope: 'gateway', text: 'tx.$executeRaw`UPDATE api_tokens SET name = 1`' },
    ];
    expect(ownershipViolations(planted, tables)).toEqual([
      'libs/queue-feature/src/planted.ts [queue] reaches phones (prisma.phone, owner phones)',
      'libs/chats-feature/src/planted.ts [chats] reaches phones (SQL, owner phones)',
      'libs/media-feature/src/planted.ts [media] reaches outbox_events (SQL, owner shared)',
      'libs/gateway-feature/src/writes.ts [gateway] reaches api_tokens (prisma.apiToken, owner members)',
      'libs/gateway-feature/src/writes-sql.ts [gateway] reaches api_tokens (SQL, owner members)',
    ]);
  });
});
