import { applyMigrations, createPrismaClient, type PrismaClient } from '@mapi/db';
import { PrivatePostgres, testEnv, waitUntil as until } from '@mapi/testing';
import { connect, type NatsConnection } from 'nats';
import { Client } from 'pg';
import pino from 'pino';
import { IngestLog } from './ingest-log';

jest.setTimeout(90_000);

/**
 * The ingest log while its Postgres is away (a cluster of the test's own, stopped as in a crash):
 * published events wait in memory and are written once it is back; past `maxPending` the oldest are
 * dropped, said once, and counted when writing resumes. Ingestion never waits for the database.
 */
describe('the ingest log while Postgres is away', () => {
  let pg: PrivatePostgres;
  let prisma: PrismaClient;
  let nc: NatsConnection;
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const logger = pino(
    { level: 'info' },
    {
      write: (line: string) => {
        const { level, msg, ...fields } = JSON.parse(line) as Record<string, unknown>;
        lines.push({ level: pino.levels.labels[level as number], msg: String(msg), fields });
      },
    },
  );

  beforeAll(async () => {
    pg = await PrivatePostgres.start();
    const admin = new Client({ connectionString: pg.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE mapi');
    await admin.end();
    await applyMigrations({ url: pg.url('mapi') });
    prisma = createPrismaClient({ url: pg.url('mapi'), poolSize: 2 });
    nc = await connect({ servers: testEnv.natsUrl() });
  });
  afterAll(async () => {
    await prisma?.$disconnect();
    await nc?.close();
    await pg?.destroy();
  });

  const stored = async () => (await prisma.$queryRaw<{ msg_id: string }[]>`SELECT msg_id FROM ingest_log ORDER BY id`).map((r) => r.msg_id);

  it('keeps what is published in memory, writes it when Postgres is back, and drops only past maxPending', async () => {
    const log = new IngestLog(prisma, nc, logger, { flushMs: 10, maxPending: 5 });
    const record = (from: number, to: number) => {
      for (let n = from; n <= to; n++) log.record(`m${n}`, 'ns.ingest.v1.message', `{"n":${n}}`, n);
    };
    record(1, 3);
    await log.flush();
    expect(await stored()).toEqual(['m1', 'm2', 'm3']);

    await pg.stop('immediate');
    const started = Date.now();
    record(4, 10); // recording never waits for the database
    expect(Date.now() - started).toBeLessThan(100);
    await expect(log.flush()).rejects.toBeDefined();
    expect(lines.filter((l) => l.msg.startsWith('ingest log: cannot write'))).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({ msg: expect.stringContaining('no longer kept'), fields: expect.objectContaining({ kept: 5 }) }),
    ]);

    await pg.start();
    // the retry scheduled by the failed write brings the five newest in, in order; m4 and m5 were dropped
    await until(async () => (await stored()).length === 8, 'the kept events written', 30_000);
    expect(await stored()).toEqual(['m1', 'm2', 'm3', 'm6', 'm7', 'm8', 'm9', 'm10']);
    expect(lines.find((l) => l.msg === 'ingest log: writing again')?.fields).toMatchObject({ dropped: 2 });
    await log.stop();
  });
});
