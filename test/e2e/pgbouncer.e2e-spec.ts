import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createOrg, createTestDatabase, createToken, randomDigits, type TestDatabase } from '@mapi/testing';
import { client, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * The stack behind PgBouncer in transaction mode (issue 22 item 3): every app's DATABASE_URL is the
 * pooler, DATABASE_POOLER=pgbouncer, and only LISTEN wake-ups use DATABASE_DIRECT_URL. Ingestion, reads,
 * sends, events and knowledge-base search all work, and the pooler's own statistics show the
 * transactions went through it. scripts/ensure-pgbouncer.sh installs and starts the pooler.
 */
const PORT = Number(process.env.PGBOUNCER_PORT ?? 6432);

describe('the stack through PgBouncer (transaction mode)', () => {
  let db: TestDatabase;
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let phoneId: string;
  let storageDir: string;
  let dbName: string;

  /** The pooler's count of transactions it carried for this test's database. */
  const pooledTransactions = async (): Promise<number> => {
    const admin = new Client({ host: '127.0.0.1', port: PORT, user: 'postgres', database: 'pgbouncer' });
    await admin.connect();
    try {
      const { rows } = await admin.query('SHOW STATS');
      return Number(rows.find((r) => r.database === dbName)?.total_xact_count ?? 0);
    } finally {
      await admin.end();
    }
  };

  beforeAll(async () => {
    execFileSync('bash', [join(__dirname, '..', '..', 'scripts', 'ensure-pgbouncer.sh')], { stdio: 'inherit' });
    db = await createTestDatabase('mapi_e2e_pgb');
    const pooled = new URL(db.url);
    dbName = pooled.pathname.slice(1);
    pooled.host = `127.0.0.1:${PORT}`;
    storageDir = mkdtempSync(join(tmpdir(), 'pgb-e2e-'));
    stack = await startStack(
      {
        DATABASE_URL: pooled.toString(),
        DATABASE_DIRECT_URL: db.url,
        DATABASE_POOLER: 'pgbouncer',
        MEDIA_STORAGE_ROOT: storageDir,
        SESSION_SCAN_MS: '200',
        QUEUE_PHONE_SCAN_MS: '200',
        QUEUE_SEND_INTERVAL_MS: '1',
        QUEUE_SEND_JITTER_MS: '0',
      },
      { services: ['phones', 'queue', 'knowledge-base', 'embedding-worker'] },
    );
    const org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    ({ phoneId } = await connectedSandboxPhone(api));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await db?.drop();
    if (storageDir) rmSync(storageDir, { recursive: true, force: true });
  });

  it('ingests, reads, sends and publishes events with every app pooled, and the pooler carried it', async () => {
    const before = await pooledTransactions();
    const chat = randomDigits();
    // Ingestion: the network delivers a message; the chats service stores it from JetStream.
    expect(
      (await api.post('/sandbox/messages', { chat_id: chat, body: 'hello through the pooler' }, { 'x-phone': phoneId })).status,
    ).toBeLessThan(300);
    await until(
      () => api.get(`/chats/${chat}/messages`, { 'x-phone': phoneId }),
      (r) => r.body?.count === 1,
      15_000,
      'inbound stored',
    );
    // Sends: through the queue and the phone's session; the echo is ingested once.
    const sent = await api.post('/message/send', { chat_id: chat, message: 'reply through the pooler' }, { 'x-phone': phoneId });
    expect(sent.status).toBe(200);
    const page = await until(
      () => api.get(`/chats/${chat}/messages`, { 'x-phone': phoneId }),
      (r) => r.body?.count === 2,
      15_000,
      'reply stored',
    );
    expect(page.body.messages.map((m: { body: string }) => m.body).sort()).toEqual([
      'hello through the pooler',
      'reply through the pooler',
    ]);
    // Reads: the chat list.
    const chats = await api.get('/chats', { 'x-phone': phoneId });
    expect(chats.status).toBe(200);
    expect(chats.body.chats.map((c: { chat_id: string }) => c.chat_id)).toContain(`${chat}@c.us`);
    // Events: the relays publish every outbox row; their LISTEN wake-ups hold direct connections.
    const unpublished = () => stack.prisma.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM outbox_events WHERE seq > COALESCE((SELECT last_seq FROM outbox_cursor WHERE name = 'relay'), 0)`;
    await until(unpublished, (r) => Number(r[0].n) === 0, 15_000, 'outbox published');
    expect(Number((await stack.prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM outbox_events`)[0].n)).toBeGreaterThan(0);
    const direct = new Client({ connectionString: db.url });
    await direct.connect();
    const listeners = await direct.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'outbox-wakeups'`,
      [dbName],
    );
    await direct.end();
    expect(listeners.rows[0].n).toBeGreaterThanOrEqual(2); // chats and phones
    expect((await pooledTransactions()) - before).toBeGreaterThan(10);
  }, 60_000);

  it('knowledge-base search sets its HNSW settings per transaction (the pooler refuses startup options)', async () => {
    const faq = await api.post('/knowledge-base/faq/create', {
      question: 'How do I get a refund?',
      answer: 'Write to billing within 30 days.',
      is_active: true,
    });
    expect(faq.status).toBe(200);
    await until(
      () => api.get(`/knowledge-base/faq/${faq.body.context_id}`),
      (r) => !!r.body?.embedding,
      15_000,
      'embedded',
    );
    const found = await api.post('/knowledge-base/search', { query: 'refund please', k: 3 });
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.body)).toContain(faq.body.context_id);
  }, 30_000);
});
