import { randomUUID } from 'node:crypto';
import { createOrg, useTestDatabase } from '@mapi/testing';
import { Pool } from 'pg';
import { DeliveryStore, type ClaimedDelivery, type EndpointLimits, type StoredEvent } from './delivery-store';

/**
 * The claim's per-endpoint limits against real Postgres, with two stores on two pools standing for
 * two dispatcher replicas claiming at the same moment.
 */
describe('DeliveryStore.claim per-endpoint limits (two replicas)', () => {
  const t = useTestDatabase('mapi_webhooks_claim');
  let pools: Pool[] = [];
  let replicas: DeliveryStore[] = [];
  let orgId: string;
  const T0 = new Date('2030-01-01T00:00:00.000Z');
  const at = (ms: number) => new Date(T0.getTime() + ms);
  const LEASE = 60_000;

  beforeAll(async () => {
    pools = [new Pool({ connectionString: t.db.url, max: 3 }), new Pool({ connectionString: t.db.url, max: 3 })];
    // The database is dropped (WITH FORCE) after this file: idle connections may then report an error.
    for (const p of pools) p.on('error', () => undefined);
    replicas = pools.map((p) => new DeliveryStore(p));
    orgId = (await createOrg(t.prisma)).id;
  });

  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  beforeEach(async () => {
    await t.prisma.$executeRawUnsafe(
      'TRUNCATE webhook_deliveries, webhook_attempts, webhook_events, webhook_endpoint_buckets, webhook_subscriptions',
    );
  });

  /** A subscription to `type` at `url` and `n` due events for it (scheduled at `when`). */
  async function backlog(url: string, n: number, when: Date): Promise<string> {
    const type = `test.${randomUUID()}`;
    await t.prisma.webhookSubscription.create({
      data: {
        org_id: orgId,
        integration_name: type,
        integration_id: randomUUID(),
        integration_metadata: {},
        hook_url: url,
        secret: 'whsec_' + Buffer.alloc(32, 3).toString('base64'),
      },
    });
    const events: StoredEvent[] = Array.from({ length: n }, () => {
      const id = randomUUID();
      return { id, org_id: orgId, type, phone_id: null, created_at: when.toISOString(), body: JSON.stringify({ event_id: id }) };
    });
    await replicas[0].scheduleEvents(events, when);
    return new URL(url).origin;
  }

  const claimBoth = async (now: Date, limit: number, limits: EndpointLimits) =>
    (await Promise.all(replicas.map((r) => r.claim(now, new Date(now.getTime() + LEASE), limit, limits)))).flat();
  const countBy = (rows: ClaimedDelivery[]) =>
    rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.endpoint]: (acc[r.endpoint] ?? 0) + 1 }), {});

  it('a late result of an ended lease does not free the slot of the lease that claimed the row again', async () => {
    await backlog('https://late.example.com/hook', 1, at(0));
    const limits = { maxInFlight: 1, ratePerSecond: 1_000 };
    const [dead] = await replicas[0].claim(at(1_000), at(1_000 + LEASE), 10, limits); // a worker that then hangs
    const [again] = await replicas[1].claim(at(1_001 + LEASE), at(1_001 + 2 * LEASE), 10, limits); // its lease ended
    expect(again.id).toBe(dead.id);
    expect(again.attempt).toBe(dead.attempt + 1);
    await replicas[0].record(
      [{ ...dead, status: 'pending', next_attempt_at: at(2_000 + LEASE).toISOString(), log: null }],
      { succeeded: [], failed: [], disable: [] },
      at(1_002 + LEASE),
    );
    const row = await t.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: BigInt(dead.id) } });
    expect(row.leased_until?.toISOString()).toBe(at(1_001 + 2 * LEASE).toISOString()); // still the new lease's
  });

  it('release() frees the slots of claimed deliveries never sent, at once and exactly once', async () => {
    const slow = await backlog('https://slow.example.com/hook', 10, at(0));
    const limits = { maxInFlight: 3, ratePerSecond: 1_000 };
    const claimed = await replicas[0].claim(at(1_000), at(1_000 + LEASE), 10, limits);
    expect(countBy(claimed)).toEqual({ [slow]: 3 });
    expect(await replicas[1].claim(at(1_001), at(1_001 + LEASE), 10, limits)).toEqual([]); // the endpoint is full

    // A stale hand-back (an attempt that is not the row's current one) changes nothing.
    await replicas[0].release(
      claimed.map((r) => ({ id: r.id, attempt: r.attempt - 1 })),
      at(1_002),
    );
    expect(await replicas[1].claim(at(1_003), at(1_003 + LEASE), 10, limits)).toEqual([]);

    await replicas[0].release(claimed, at(1_004)); // the worker stopped before sending them
    const rows = await t.prisma.webhookDelivery.findMany({
      where: { id: { in: claimed.map((r) => BigInt(r.id)) } },
      orderBy: { id: 'asc' },
    });
    expect(rows.map((r) => [r.leased_until, r.attempts, r.next_attempt_at?.toISOString()])).toEqual(
      [...claimed].sort((a, b) => Number(a.id) - Number(b.id)).map((r) => [null, r.attempt - 1, at(1_004).toISOString()]), // due again, the unsent attempt undone
    );
    expect(await replicas[1].claim(at(1_005), at(1_005 + LEASE), 10, limits)).toHaveLength(3); // the slots are free now, not after the lease
  });

  it('never leases more than maxInFlight deliveries of one endpoint, even when replicas claim at once', async () => {
    const slow = await backlog('https://slow.example.com/hook', 100, at(0));
    const b = await backlog('https://b.example.com/hook', 3, at(10));
    const c = await backlog('https://c.example.com:8443/x', 3, at(20));
    const limits = { maxInFlight: 5, ratePerSecond: 1_000 };

    const first = await claimBoth(at(1_000), 50, limits);
    expect(countBy(first)).toEqual({ [slow]: 5, [b]: 3, [c]: 3 });
    expect(new Set(first.map((r) => r.id)).size).toBe(first.length);

    // While those are held, nothing more of the slow endpoint, from either replica.
    expect(await claimBoth(at(2_000), 50, limits)).toEqual([]);

    // Recording two of them frees two slots.
    const done = first.filter((r) => r.endpoint === slow).slice(0, 2);
    await replicas[1].record(
      done.map((r) => ({ ...r, status: 'succeeded' as const, next_attempt_at: null, log: null })),
      { succeeded: [], failed: [], disable: [] },
      at(2_500),
    );
    expect(countBy(await claimBoth(at(3_000), 50, limits))).toEqual({ [slow]: 2 });

    // A worker that died holds its slots only until its lease ends: the first leases (ended) free
    // their slots and rows, the later two (still leased) keep theirs.
    expect(countBy(await claimBoth(at(1_000 + LEASE + 1), 50, limits))).toEqual({ [slow]: 3, [b]: 3, [c]: 3 });
  });

  it('spreads a per-endpoint rate over both replicas (token bucket, burst = one second)', async () => {
    const ep = await backlog('https://rate.example.com/hook', 100, at(0));
    const limits = { maxInFlight: 1_000, ratePerSecond: 10 };
    expect(countBy(await claimBoth(at(1_000), 50, limits))).toEqual({ [ep]: 10 });
    expect(await claimBoth(at(1_050), 50, limits)).toEqual([]);
    // Half a second later: five more tokens, shared by the replicas.
    expect(countBy(await claimBoth(at(1_550), 50, limits))).toEqual({ [ep]: 5 });
    // Idle for a long time: the bucket is full again, but never above one second's worth.
    expect(countBy(await claimBoth(at(60_000), 50, limits))).toEqual({ [ep]: 10 });
  });

  it("does not let one endpoint's older backlog hide the others' due deliveries", async () => {
    const slow = await backlog('https://backlog.example.com/hook', 3_000, at(0));
    const others = await Promise.all([1, 2, 3, 4].map((i) => backlog(`https://other${i}.example.com/hook`, 2, at(5_000 + i))));
    const limits = { maxInFlight: 8, ratePerSecond: 1_000 };
    const rows = await replicas[0].claim(at(10_000), at(10_000 + LEASE), 20, limits);
    expect(countBy(rows)).toEqual({ [slow]: 8, ...Object.fromEntries(others.map((o) => [o, 2])) });
    // The oldest due rows of the backlog come first (order within an endpoint is kept).
    const mine = rows.filter((r) => r.endpoint === slow).map((r) => Number(r.id));
    expect(mine).toEqual([...mine].sort((x, y) => x - y));
  });
});
