import { randomUUID } from 'node:crypto';
import { randomSuffix, stubEvents, testEnv, useTestDatabase } from '@mapi/testing';
import { JSONCodec, connect, type NatsConnection } from 'nats';
import pino from 'pino';
import { ensureStreams, streamNames } from './jetstream';
import { OutboxRelay, unpublishedEvents, writeEvents, type DomainEvent } from './outbox';

const t = useTestDatabase('outbox', { poolSize: 4 }); // a held transaction, a waiting writer and a relay at once
type StubEvent = Omit<DomainEvent, 'data'> & { data: unknown }; // stand-in payloads (stubEvents)
const codec = JSONCodec<StubEvent>();
let nc: NatsConnection;
const namespace = `outbox-${randomSuffix()}`;
const org = randomUUID();

beforeAll(async () => {
  nc = await connect({ servers: testEnv.natsUrl() });
  await ensureStreams(nc, namespace);
});
afterAll(async () => {
  const jsm = await nc.jetstreamManager();
  for (const name of Object.values(streamNames(namespace))) await jsm.streams.delete(name).catch(() => undefined);
  await nc.close();
});

/** Rows after the relay's cursor, in write order. */
async function unpublished() {
  const cursor = await t.prisma.outboxCursor.findUniqueOrThrow({ where: { name: 'relay' } });
  return t.prisma.outboxEvent.findMany({ where: { seq: { gt: cursor.last_seq } }, orderBy: { seq: 'asc' } });
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const relayOf = () => new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }));

describe('writeEvents', () => {
  afterEach(() => t.prisma.outboxEvent.deleteMany({}));

  it('writes every event of a call in order, with its payload as given', async () => {
    const events = Array.from({ length: 300 }, (_, i) => ({
      type: 'message.created' as const,
      org_id: org,
      phone_id: i % 2 ? `phone-${i}` : null,
      data: { n: i, body: `héllo "${i}"\n`, nested: { at: new Date(1_700_000_000_000 + i).toISOString(), list: [i, null] } },
    }));
    await t.prisma.$transaction((tx) => writeEvents(tx, stubEvents(events)));
    const rows = await unpublished();
    expect(rows.map((r) => (r.payload as { n: number }).n)).toEqual(events.map((e) => e.data.n));
    expect(rows.map((r) => r.payload)).toEqual(events.map((e) => e.data));
    expect(rows.map((r) => r.phone_id)).toEqual(events.map((e) => e.phone_id));
    expect(new Set(rows.map((r) => r.id)).size).toBe(300);
    expect(rows.every((r) => r.org_id === org && r.type === 'message.created')).toBe(true);
  });

  it('writes nothing when the transaction that carries it rolls back', async () => {
    await expect(
      t.prisma.$transaction(async (tx) => {
        await writeEvents(tx, stubEvents([{ type: 'chat.created', org_id: org, data: { chat_id: 'x@c.us' } }]));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await unpublished()).toHaveLength(0);
  });

  it('rejects an organization that is not a uuid instead of writing a half batch', async () => {
    await expect(
      writeEvents(
        t.prisma,
        stubEvents([
          { type: 'chat.created', org_id: org, data: {} },
          { type: 'chat.created', org_id: 'not-a-uuid', data: {} },
        ]),
      ),
    ).rejects.toThrow();
    expect(await unpublished()).toHaveLength(0);
  });
});

describe('OutboxRelay.relayOnce', () => {
  it('publishes unpublished events in write order with Nats-Msg-Id = event id, then moves the cursor past them', async () => {
    const events = Array.from({ length: 25 }, (_, i) => ({
      type: 'message.created' as const,
      org_id: org,
      phone_id: 'p1',
      data: { n: i },
    }));
    await writeEvents(t.prisma, stubEvents(events));
    const written = await unpublished();
    const relay = new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }));
    expect(await relay.relayOnce(10)).toBe(10);
    expect(await relay.relayOnce(100)).toBe(15);
    expect(await relay.relayOnce(100)).toBe(0);
    expect(await unpublished()).toHaveLength(0);

    const js = nc.jetstream();
    const consumer = await js.consumers.get(streamNames(namespace).events); // ordered consumer over the stream
    const seen: { id: string | undefined; subject: string; event: StubEvent }[] = [];
    const messages = await consumer.fetch({ max_messages: 25, expires: 2_000 });
    for await (const m of messages) seen.push({ id: m.headers?.get('Nats-Msg-Id'), subject: m.subject, event: codec.decode(m.data) });
    expect(seen.map((s) => (s.event.data as { n: number }).n)).toEqual(events.map((e) => e.data.n));
    expect(seen.map((s) => s.id)).toEqual(written.map((r) => r.id));
    expect(seen.map((s) => s.event.event_id)).toEqual(written.map((r) => r.id));
    expect(seen[0].event).toMatchObject({ event_type: 'message.created', org_id: org, phone_id: 'p1' });
    // The subject is the event definition's versioned one (contracts), under the namespace.
    expect(new Set(seen.map((s) => s.subject))).toEqual(new Set([`${namespace}.events.v1.message.created`]));
  });
});

describe('OutboxRelay.pruneOnce', () => {
  it('deletes published rows older than the retention window, and never an unpublished one', async () => {
    await t.prisma.outboxEvent.deleteMany({});
    await writeEvents(
      t.prisma,
      stubEvents(Array.from({ length: 4 }, (_, i) => ({ type: 'chat.created' as const, org_id: org, data: { i } }))),
    );
    const rows = await t.prisma.outboxEvent.findMany({ orderBy: { seq: 'asc' } });
    const hour = 3600_000;
    await t.prisma.outboxCursor.update({ where: { name: 'relay' }, data: { last_seq: rows[1].seq } }); // rows 0 and 1 are published
    await t.prisma.outboxEvent.update({ where: { id: rows[0].id }, data: { created_at: new Date(Date.now() - 3 * hour) } });
    await t.prisma.outboxEvent.update({ where: { id: rows[1].id }, data: { created_at: new Date(Date.now() - 0.5 * hour) } });
    await t.prisma.outboxEvent.update({ where: { id: rows[2].id }, data: { created_at: new Date(Date.now() - 5 * hour) } }); // old but unpublished
    const relay = new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }), { keepPublishedMs: hour });
    expect(await relay.pruneOnce()).toBe(1);
    expect((await t.prisma.outboxEvent.findMany({ orderBy: { seq: 'asc' } })).map((r) => r.id)).toEqual(rows.slice(1).map((r) => r.id));
    expect(await relay.pruneOnce()).toBe(0);
    await t.prisma.outboxCursor.update({ where: { name: 'relay' }, data: { last_seq: rows[3].seq } });
    expect(await relay.pruneOnce()).toBe(1); // row 2, now published and 5 h old
  });

  it("prunes more than one statement's worth in a round", async () => {
    await t.prisma.outboxEvent.deleteMany({});
    await writeEvents(
      t.prisma,
      stubEvents(Array.from({ length: 25 }, (_, i) => ({ type: 'chat.created' as const, org_id: org, data: { i } }))),
    );
    await t.prisma.$executeRaw`UPDATE outbox_events SET created_at = now() - interval '2 hours'`;
    await t.prisma.$executeRaw`UPDATE outbox_cursor SET last_seq = (SELECT max(seq) FROM outbox_events) WHERE name = 'relay'`;
    const relay = new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }), { keepPublishedMs: 3600_000 });
    expect(await relay.pruneOnce(10)).toBe(25);
  });
});

describe('the outbox lock: seq order is commit order', () => {
  beforeEach(async () => {
    await t.prisma.outboxEvent.deleteMany({});
    await relayOf().relayOnce(10_000); // earlier tests' events, if any, out of the way
  });

  it('holds a second writer until the first commits, so the relay never skips a slower transaction', async () => {
    let commitFirst!: () => void;
    const held = new Promise<void>((r) => (commitFirst = r));
    let firstWrote!: () => void;
    const wrote = new Promise<void>((r) => (firstWrote = r));
    const first = t.prisma.$transaction(
      async (tx) => {
        await writeEvents(tx, stubEvents([{ type: 'chat.created', org_id: org, data: { who: 'first' } }]));
        firstWrote();
        await held; // still open: its seq is drawn, its row not visible
      },
      { timeout: 20_000 },
    );
    await wrote;
    let secondDone = false;
    const second = writeEvents(t.prisma, stubEvents([{ type: 'chat.created', org_id: org, data: { who: 'second' } }])).then(
      () => (secondDone = true),
    );
    await sleep(300);
    expect(secondDone).toBe(false); // waiting for the lock, not committed ahead of the first
    expect(await relayOf().relayOnce()).toBe(0); // nothing visible yet, so nothing to skip over
    commitFirst();
    await Promise.all([first, second]);
    expect((await unpublished()).map((r) => (r.payload as { who: string }).who)).toEqual(['first', 'second']);
    expect(await relayOf().relayOnce()).toBe(2);
    expect(await unpublishedEvents(t.prisma)).toBe(0);
  });

  it('a rolled-back writer leaves no gap that stops the relay', async () => {
    await expect(
      t.prisma.$transaction(async (tx) => {
        await writeEvents(tx, stubEvents([{ type: 'chat.created', org_id: org, data: { who: 'gone' } }]));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await writeEvents(t.prisma, stubEvents([{ type: 'chat.created', org_id: org, data: { who: 'kept' } }]));
    expect(await relayOf().relayOnce()).toBe(1);
    expect(await unpublishedEvents(t.prisma)).toBe(0);
  });
});

describe('OutboxRelay turns', () => {
  it('skips its turn while another relay holds the cursor, and recreates a missing cursor', async () => {
    await t.prisma.outboxEvent.deleteMany({});
    await relayOf().relayOnce(10_000);
    await writeEvents(t.prisma, stubEvents([{ type: 'chat.created', org_id: org, data: { turn: 1 } }]));
    let release!: () => void;
    const holding = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const other = t.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT last_seq FROM outbox_cursor WHERE name = 'relay' FOR UPDATE`;
        locked();
        await holding;
      },
      { timeout: 20_000 },
    );
    await isLocked;
    expect(await relayOf().relayOnce()).toBe(0);
    release();
    await other;
    expect(await relayOf().relayOnce()).toBe(1);

    await t.prisma.outboxCursor.deleteMany({});
    await writeEvents(t.prisma, stubEvents([{ type: 'chat.created', org_id: org, data: { turn: 2 } }]));
    expect(await relayOf().relayOnce()).toBe(0); // recreates the cursor at 0
    expect(await relayOf().relayOnce()).toBe(2); // everything still in the table, the first one again (same event id)
  });
});

describe('OutboxRelay rounds that find nothing', () => {
  it('answer with one statement, no transaction; a round with events opens one', async () => {
    await t.prisma.outboxEvent.deleteMany({});
    const relay = relayOf();
    await relay.relayOnce(10_000); // the cursor at the end
    const transactions = jest.spyOn(t.prisma, '$transaction');
    try {
      expect(await relay.relayOnce()).toBe(0);
      expect(transactions).not.toHaveBeenCalled();
      await writeEvents(
        t.prisma,
        stubEvents([
          { type: 'chat.created', org_id: org, data: { probe: 1 } },
          { type: 'chat.created', org_id: org, data: { probe: 2 } },
        ]),
      );
      expect(await relay.relayOnce()).toBe(2);
      expect(transactions).toHaveBeenCalledTimes(1);
      expect(await relay.relayOnce()).toBe(0);
      expect(transactions).toHaveBeenCalledTimes(1);
    } finally {
      transactions.mockRestore();
    }
  });
});

describe("OutboxRelay rounds after this process's own commit (no probe)", () => {
  it('go straight to the turn: publish what follows the cursor, or find nothing when another round took it', async () => {
    await t.prisma.outboxEvent.deleteMany({});
    const relay = relayOf();
    await relay.relayOnce(10_000); // the cursor at the end
    const probes = jest.spyOn(t.prisma, '$queryRaw');
    try {
      await writeEvents(t.prisma, stubEvents([{ type: 'chat.created', org_id: org, data: { own: 1 } }]));
      expect(await relay.relayOnce(500, false)).toBe(1);
      expect(probes).toHaveBeenCalledTimes(1); // the round's read only
      expect(await relay.relayOnce(500, false)).toBe(0); // taken already: the read finds nothing after the cursor
      expect(await unpublished()).toHaveLength(0);
      probes.mockClear();
      await writeEvents(t.prisma, stubEvents([{ type: 'chat.created', org_id: org, data: { own: 2 } }]));
      expect(await relay.relayOnce(500, true)).toBe(1);
      expect(probes).toHaveBeenCalledTimes(2); // a woken round probes first, then reads
    } finally {
      probes.mockRestore();
    }
  });
});

describe('OutboxRelay.kick', () => {
  it('relays events written in this process at once instead of at the next idle poll', async () => {
    await t.prisma.outboxEvent.deleteMany({});
    const relay = new OutboxRelay(t.prisma, nc, namespace, pino({ level: 'silent' }), { intervalMs: 60_000 }); // an idle poll never comes in time
    relay.start();
    try {
      await new Promise((r) => setTimeout(r, 300)); // the first (empty) tick is done: idle
      await writeEvents(t.prisma, stubEvents([{ type: 'chat.created', org_id: org, data: { kicked: true } }]));
      relay.kick();
      const end = Date.now() + 5_000;
      while ((await unpublished()).length && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(await unpublished()).toHaveLength(0);
    } finally {
      await relay.stop();
    }
  });
});
