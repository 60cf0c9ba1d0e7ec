import { randomUUID } from 'node:crypto';
import { createPrismaClient } from '@mapi/db';
import { randomSuffix, stubEvents, testEnv, useTestDatabase } from '@mapi/testing';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { ensureStreams, streamNames } from './jetstream';
import { OutboxRelay, writeEvents } from './outbox';

const t = useTestDatabase('outbox_wakeups', { poolSize: 2 });
const namespace = `wakeups-${randomSuffix()}`;
const org = randomUUID();
let nc: NatsConnection;

beforeAll(async () => {
  nc = await connect({ servers: testEnv.natsUrl() });
  await ensureStreams(nc, namespace);
});
afterAll(async () => {
  const jsm = await nc.jetstreamManager();
  for (const name of Object.values(streamNames(namespace))) await jsm.streams.delete(name).catch(() => undefined);
  await nc.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const published = async () => (await t.prisma.outboxCursor.findUnique({ where: { name: 'relay' } }))?.last_seq ?? 0n;
/** Transactions committed in the test database so far (pg_stat_database; its counters lag by up to ~0.5 s). */
async function commits(): Promise<number> {
  const [row] = await t.prisma.$queryRaw<{ n: bigint }[]>`SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()`;
  return Number(row.n);
}

describe('OutboxRelay with wake-ups (LISTEN/NOTIFY)', () => {
  it('publishes an event committed by another process at once, though its poll is 60 s away, and is quiet at rest', async () => {
    const relay = new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }), { listenUrl: t.db.url, safetyPollMs: 60_000 });
    const writer = createPrismaClient({ url: t.db.url, poolSize: 1 }); // another process's connection
    await relay.start();
    try {
      const deadline = Date.now() + 5_000;
      while (!relay.listening && Date.now() < deadline) await sleep(20);
      expect(relay.listening).toBe(true);
      await sleep(300); // the first round is done: the relay waits for a wake-up

      // At rest: over 2 s the relay commits nothing (no polls; the counters also see this spec's own reads).
      const before = await commits();
      await sleep(2_000);
      expect((await commits()) - before).toBeLessThanOrEqual(4);

      const seqBefore = await published();
      const started = Date.now();
      await writer.$transaction((tx) => writeEvents(tx, stubEvents([{ type: 'chat.created', org_id: org, data: { n: 1 } }])));
      while ((await published()) === seqBefore && Date.now() - started < 5_000) await sleep(10);
      expect(await published()).toBeGreaterThan(seqBefore);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await relay.stop();
      await writer.$disconnect();
    }
  });

  it('without wake-ups (no listen URL) it keeps polling at intervalMs, so nothing waits long', async () => {
    const relay = new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }), { intervalMs: 50 });
    await relay.start();
    try {
      expect(relay.listening).toBe(false);
      const seqBefore = await published();
      await writeEvents(t.prisma, stubEvents([{ type: 'chat.created', org_id: org, data: { n: 2 } }]));
      const started = Date.now();
      while ((await published()) === seqBefore && Date.now() - started < 5_000) await sleep(10);
      expect(await published()).toBeGreaterThan(seqBefore);
    } finally {
      await relay.stop();
    }
  });
});
