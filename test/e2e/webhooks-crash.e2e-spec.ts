import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { unpublishedEvents, writeEvents } from '@mapi/events';
import { AppProcess, createOrg, createTestDatabase, randomSuffix, stubEvents, testEnv, type TestDatabase } from '@mapi/testing';
import { until } from './support/http';
const { startReceiver } = require('../../bench/webhooks/receiver.js');

/**
 * No event is lost when processes die: 10,000 events are written to the outbox while the dispatcher
 * and the outbox relay are SIGKILLed repeatedly; every event id must reach the local receiver
 * (duplicates only with the same id) and nothing may be left pending. Own database and namespace,
 * so no other test's dispatcher shares the work.
 */
jest.setTimeout(240_000);

const TOTAL = 10_000;
const BATCH = 250;

describe('webhook delivery survives crashes', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let receiver: any;
  const namespace = `wc${randomSuffix(3)}`;
  let env: Record<string, string>;
  let dispatcher: AppProcess | undefined;
  let relay: ChildProcess | undefined;

  const startRelay = () =>
    spawn(process.execPath, [join(__dirname, '../../bench/webhooks/outbox-relay-process.js')], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
  const killRelay = async () => {
    const r = relay;
    if (!r || r.exitCode !== null) return;
    const exited = new Promise((res) => r.once('exit', res));
    r.kill('SIGKILL');
    await exited;
  };

  beforeAll(async () => {
    db = await createTestDatabase('mapi_webhooks_crash');
    prisma = createPrismaClient({ url: db.url, poolSize: 4 });
    receiver = await startReceiver();
    env = {
      DATABASE_URL: db.url,
      NATS_URL: testEnv.natsUrl(),
      NAMESPACE: namespace,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      // A receiver slower than the timeout on a loaded machine would count as a timeout, and a timeout
      // is retried no sooner than 60 s later (issue: Retry-After); generous here, so the test is about
      // crashes. A killed dispatcher's leases still end within seconds.
      WEBHOOK_CLAIM_LEASE_MS: '10000',
      WEBHOOK_DELIVERY_TIMEOUT_MS: '8000',
      WEBHOOK_INTAKE_ACK_WAIT_MS: '3000',
      WEBHOOK_ENDPOINT_RATE_PER_SECOND: '100000',
      WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: '64',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    };
  });

  afterAll(async () => {
    await dispatcher?.stop();
    await killRelay();
    await receiver?.close();
    await prisma?.$disconnect();
    await db?.drop();
  });

  it('delivers all 10,000 event ids while the dispatcher and the relay are killed repeatedly', async () => {
    const org = await createOrg(prisma);
    const sub = await prisma.webhookSubscription.create({
      data: {
        org_id: org.id,
        integration_name: 'message.created',
        integration_id: org.id,
        integration_metadata: { id: org.id, name: 'crash receiver' },
        hook_url: `${receiver.url}/crash`,
        secret: 'whsec_' + Buffer.alloc(32, 7).toString('base64'),
      },
    });
    dispatcher = AppProcess.start('webhooks-dispatcher', env);
    relay = startRelay();

    const kills = { dispatcher: 0, relay: 0 };
    const started = Date.now();
    for (let written = 0, batchNo = 0; written < TOTAL; batchNo++) {
      await prisma.$transaction((tx) =>
        writeEvents(
          tx,
          stubEvents(
            Array.from({ length: BATCH }, (_, i) => ({
              type: 'message.created' as const,
              org_id: org.id,
              phone_id: null,
              data: { n: written + i },
            })),
          ),
        ),
      );
      written += BATCH;
      // Kill the dispatcher every 8th batch and the relay every 10th (offset), restarting each at once.
      if (batchNo % 8 === 5) {
        await dispatcher.kill();
        kills.dispatcher++;
        dispatcher = AppProcess.start('webhooks-dispatcher', env);
      }
      if (batchNo % 10 === 7) {
        await killRelay();
        kills.relay++;
        relay = startRelay();
      }
      await new Promise((r) => setTimeout(r, 120));
    }
    // And once more while the tail is being delivered.
    await until(
      async () => receiver.requests.length,
      (n) => n > TOTAL / 2,
      60_000,
      'half delivered',
    );
    await dispatcher.kill();
    kills.dispatcher++;
    dispatcher = AppProcess.start('webhooks-dispatcher', env);
    expect(kills.dispatcher).toBeGreaterThanOrEqual(4);
    expect(kills.relay).toBeGreaterThanOrEqual(3);

    const emitted = new Set((await prisma.outboxEvent.findMany({ select: { id: true } })).map((e) => e.id));
    expect(emitted.size).toBe(TOTAL);
    const ids = () => new Set(receiver.requests.map((r: any) => r.headers['webhook-id']));
    await until(
      async () => ids().size,
      (n) => n >= TOTAL,
      90_000,
      'all ids delivered',
    );

    // Every request's id is an emitted event's, and a duplicate carries the same id as its body.
    for (const r of receiver.requests) {
      expect(emitted.has(r.headers['webhook-id'])).toBe(true);
      expect(JSON.parse(r.body).event_id).toBe(r.headers['webhook-id']);
    }
    expect(ids().size).toBe(TOTAL);
    // Nothing left pending: every outbox row published, every delivery settled as succeeded.
    const left = await until(
      async () => ({
        unpublished: await unpublishedEvents(prisma),
        deliveries: await prisma.webhookDelivery.count({ where: { subscription_id: sub.id } }),
        unsettled: await prisma.webhookDelivery.count({ where: { subscription_id: sub.id, status: { not: 'succeeded' } } }),
      }),
      (v) => v.unpublished === 0 && v.unsettled === 0,
      75_000, // a delivery recorded as a timeout under load is retried 60 s later
      'nothing pending',
    );
    expect(left).toEqual({ unpublished: 0, deliveries: TOTAL, unsettled: 0 });
    const duplicates = receiver.requests.length - TOTAL;
    process.stdout.write(
      `crash test: ${TOTAL} events, ${kills.dispatcher} dispatcher kills, ${kills.relay} relay kills, ${duplicates} duplicate deliveries, ${Date.now() - started} ms\n`,
    );
  });
});
