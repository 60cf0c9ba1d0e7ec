import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import { AppProcess, createOrg, createTestDatabase, freePort, randomSuffix, stubEvents, testEnv, type TestDatabase } from '@mapi/testing';
import { until } from './support/http';
const { startReceiver } = require('../../bench/webhooks/receiver.js');

/**
 * One slow customer cannot starve the others, and the per-endpoint limit holds across replicas: two
 * dispatcher processes share a backlog for an endpoint that answers after 5 s; that endpoint never
 * has more than WEBHOOK_ENDPOINT_MAX_IN_FLIGHT requests open (both replicas together), while the
 * events of two other organizations (other endpoints), written during the backlog, arrive promptly.
 */
jest.setTimeout(120_000);

const MAX_IN_FLIGHT = 4;
const SLOW_MS = 5_000;
const SLOW_EVENTS = 60;
const LATENCY_BOUND_MS = 2_500;

/** TCP connections process `pid` holds to 127.0.0.1:`port` (Linux /proc: its socket inodes matched in /proc/net/tcp). */
function connectionsTo(pid: number, port: number): number {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      /* closed meanwhile */
    }
  }
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((f) => f.length > 9 && f[2] === `0100007F:${hexPort}` && inodes.has(f[9])).length;
}

describe('per-endpoint fairness across dispatcher replicas', () => {
  let db: TestDatabase;
  let prisma: PrismaClient;
  let relay: ChildProcess | undefined;
  const dispatchers: AppProcess[] = [];
  const receivers: Record<'slow' | 'a' | 'b', any> = {} as any;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase('mapi_webhooks_fair');
    prisma = createPrismaClient({ url: db.url, poolSize: 4 });
    for (const k of ['slow', 'a', 'b'] as const) receivers[k] = await startReceiver();
    receivers.slow.script('/hook', () => ({ status: 200, delayMs: SLOW_MS }));
    env = {
      DATABASE_URL: db.url,
      NATS_URL: testEnv.natsUrl(),
      NAMESPACE: `wf${randomSuffix(3)}`,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HEALTH_HOST: '127.0.0.1',
      WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
      WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
      WEBHOOK_CONCURRENCY: '16',
      WEBHOOK_DELIVERY_TIMEOUT_MS: '10000',
      WEBHOOK_CLAIM_LEASE_MS: '30000',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    };
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      const p = AppProcess.start('webhooks-dispatcher', { ...env, HEALTH_PORT: String(port) });
      dispatchers.push(p);
      await p.waitReady(`http://127.0.0.1:${port}/health/ready`);
    }
    relay = spawn(process.execPath, [join(__dirname, '../../bench/webhooks/outbox-relay-process.js')], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
  }, 90_000);

  afterAll(async () => {
    await Promise.all(dispatchers.map((d) => d.stop()));
    const r = relay;
    if (r && r.exitCode === null) {
      const exited = new Promise((res) => r.once('exit', res));
      r.kill('SIGTERM');
      await exited;
    }
    for (const r of Object.values(receivers)) await r?.close();
    await prisma?.$disconnect();
    await db?.drop();
  });

  async function subscribe(orgId: string, url: string) {
    await prisma.webhookSubscription.create({
      data: {
        org_id: orgId,
        integration_name: 'message.created',
        integration_id: orgId,
        integration_metadata: { id: orgId, name: url },
        hook_url: url,
        secret: 'whsec_' + Buffer.alloc(32, 5).toString('base64'),
      },
    });
  }
  const emit = (orgId: string, n: number, tag: string) =>
    prisma.$transaction((tx) =>
      writeEvents(
        tx,
        stubEvents(
          Array.from({ length: n }, (_, i) => ({ type: 'message.created' as const, org_id: orgId, phone_id: null, data: { tag, i } })),
        ),
      ),
    );

  it('keeps the slow endpoint at its limit (both replicas together) and delivers the others promptly', async () => {
    const [slowOrg, orgA, orgB] = [await createOrg(prisma), await createOrg(prisma), await createOrg(prisma)];
    await subscribe(slowOrg.id, `${receivers.slow.url}/hook`);
    await subscribe(orgA.id, `${receivers.a.url}/hook`);
    await subscribe(orgB.id, `${receivers.b.url}/hook`);

    await emit(slowOrg.id, SLOW_EVENTS, 'slow');
    await until(
      async () => receivers.slow.state.open,
      (n) => n >= MAX_IN_FLIGHT,
      15_000,
      'slow endpoint saturated',
    );

    // During the backlog (7 s: the slow endpoint's slots turn over once, both replicas racing for
    // them): one event for each other organization every 200 ms.
    const started = Date.now();
    let written = 0;
    const held = dispatchers.map(() => ({ slow: 0, any: 0 }));
    while (Date.now() - started < 7_000) {
      await emit(orgA.id, 1, 'a');
      await emit(orgB.id, 1, 'b');
      written++;
      dispatchers.forEach((d, i) => {
        const [slow, a, b] = [receivers.slow, receivers.a, receivers.b].map((r) => connectionsTo(d.child.pid ?? 0, r.port));
        held[i] = { slow: Math.max(held[i].slow, slow), any: Math.max(held[i].any, slow + a + b) };
      });
      await new Promise((r) => setTimeout(r, 200));
    }
    for (const k of ['a', 'b'] as const)
      await until(
        async () => receivers[k].requests.length,
        (n) => n >= written,
        15_000,
        `${k} delivered`,
      );

    const latencies = [...receivers.a.requests, ...receivers.b.requests].map((r: any) => r.at - Date.parse(JSON.parse(r.body).created_at));
    const slowDone = receivers.slow.requests.length;
    process.stdout.write(
      `fairness: ${written * 2} prompt events, latency max ${Math.max(...latencies)} ms; slow endpoint peak ${receivers.slow.state.maxOpen} open, ` +
        `${slowDone}/${SLOW_EVENTS} reached, connections per replica (slow endpoint/all) ${held.map((h) => `${h.slow}/${h.any}`).join(', ')}\n`,
    );
    expect(latencies).toHaveLength(written * 2);
    expect(Math.max(...latencies)).toBeLessThan(LATENCY_BOUND_MS);
    // The slow endpoint was busy the whole time, and never above its limit with two replicas claiming.
    expect(slowDone).toBeGreaterThanOrEqual(MAX_IN_FLIGHT);
    expect(slowDone).toBeLessThan(SLOW_EVENTS);
    expect(receivers.slow.state.maxOpen).toBe(MAX_IN_FLIGHT);
    // Both replicas were delivering (and claiming) throughout: each held connections to the receivers.
    // With a per-process limit, each would have taken MAX_IN_FLIGHT of the slow backlog.
    expect(held.every((h) => h.any >= 1)).toBe(true);
    expect(held.reduce((n, h) => n + h.slow, 0)).toBeGreaterThanOrEqual(MAX_IN_FLIGHT);
  });
});
