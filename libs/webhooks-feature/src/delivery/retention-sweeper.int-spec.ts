import { randomUUID } from 'node:crypto';
import { createOrg, useTestDatabase } from '@mapi/testing';
import { Pool } from 'pg';
import pino from 'pino';
import type { Clock } from './clock';
import { RetentionSweeper } from './retention-sweeper';

/** The retention sweep against real Postgres: what is older than the period goes, what is newer or still needed stays. */
describe('RetentionSweeper', () => {
  const t = useTestDatabase('mapi_webhooks_retention');
  let pool: Pool;
  const DAY = 24 * 3_600_000;
  const NOW = Date.UTC(2030, 5, 1);
  const clock: Clock = { now: () => new Date(NOW) };
  const ago = (days: number) => new Date(NOW - days * DAY);
  let orgId: string;
  let subId: string;

  beforeAll(async () => {
    pool = new Pool({ connectionString: t.db.url, max: 2 });
    pool.on('error', () => undefined);
    orgId = (await createOrg(t.prisma)).id;
    subId = (
      await t.prisma.webhookSubscription.create({
        data: {
          org_id: orgId,
          integration_name: 'message.created',
          integration_id: randomUUID(),
          integration_metadata: {},
          hook_url: 'https://r.example.com/h',
          secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64'),
        },
      })
    ).id;
  });

  afterAll(async () => {
    await pool?.end();
  });

  beforeEach(async () => {
    await t.prisma.$executeRawUnsafe('TRUNCATE webhook_deliveries, webhook_attempts, webhook_events, webhook_endpoint_buckets');
  });

  /** An event received `days` ago with one delivery (settled or still pending) and one logged attempt. */
  async function seed(label: string, days: number, pending = false) {
    const id = randomUUID();
    const at = ago(days);
    await t.prisma.webhookEvent.create({
      data: { id, org_id: orgId, type: 'message.created', body: JSON.stringify({ label }), created_at: at, received_at: at },
    });
    const delivery = await t.prisma.webhookDelivery.create({
      data: {
        subscription_id: subId,
        event_id: id,
        org_id: orgId,
        endpoint: 'https://r.example.com',
        status: pending ? 'pending' : 'succeeded',
        attempts: 1,
        next_attempt_at: pending ? new Date(NOW + 60_000) : null,
        created_at: at,
        updated_at: at,
      },
    });
    await t.prisma.webhookAttempt.create({
      data: {
        subscription_id: subId,
        delivery_id: delivery.id,
        event_id: id,
        org_id: orgId,
        attempt: 1,
        attempted_at: at,
        success: !pending,
        latency_ms: 5,
      },
    });
    return { label, id };
  }

  const remaining = async () => ({
    events: (await t.prisma.webhookEvent.findMany({ select: { body: true } })).map((e) => JSON.parse(e.body).label).sort(),
    deliveries: await t.prisma.webhookDelivery.count(),
    attempts: await t.prisma.webhookAttempt.count(),
  });

  it('deletes the log, settled deliveries and events older than the retention period, in batches', async () => {
    for (let i = 0; i < 7; i++) await seed(`old${i}`, 31 + i);
    await seed('recent', 29);
    await seed('today', 0);
    // Older than the period but its delivery is still being retried: the event is kept for it.
    await seed('old-pending', 40, true);
    await t.prisma.webhookEndpointBucket.createMany({
      data: [
        { endpoint: 'https://idle.example.com', tokens: 5, refilled_at: ago(31) },
        { endpoint: 'https://r.example.com', tokens: 5, refilled_at: ago(1) },
      ],
    });

    const sweeper = new RetentionSweeper(
      pool,
      clock,
      { retentionMs: 30 * DAY, intervalMs: 60_000, batchSize: 3 },
      pino({ level: 'silent' }),
    );
    expect(await sweeper.sweep()).toEqual({ attempts: 8, deliveries: 7, events: 7, buckets: 1 });
    expect(await remaining()).toEqual({ events: ['old-pending', 'recent', 'today'], deliveries: 3, attempts: 2 });
    expect((await t.prisma.webhookEndpointBucket.findMany()).map((b) => b.endpoint)).toEqual(['https://r.example.com']);
    // Nothing more to do.
    expect(await sweeper.sweep()).toEqual({ attempts: 0, deliveries: 0, events: 0, buckets: 0 });
  });

  it('sweeps periodically once started, with the configured period', async () => {
    await seed('two-days', 2);
    await seed('fresh', 0.5);
    const sweeper = new RetentionSweeper(pool, clock, { retentionMs: DAY, intervalMs: 1_000 }, pino({ level: 'silent' }));
    sweeper.start();
    try {
      const deadline = Date.now() + 10_000;
      while ((await t.prisma.webhookEvent.count()) > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      // A row written meanwhile is swept by a later run.
      await seed('later-old', 3);
      const again = Date.now() + 10_000;
      while ((await t.prisma.webhookEvent.count()) > 1 && Date.now() < again) await new Promise((r) => setTimeout(r, 100));
    } finally {
      await sweeper.stop();
    }
    expect(await remaining()).toEqual({ events: ['fresh'], deliveries: 1, attempts: 1 });
  });
});
