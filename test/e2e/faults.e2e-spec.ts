import { applyMigrations } from '@mapi/db';
import { PrivateNats, PrivatePostgres, PrivateRedis, randomDigits } from '@mapi/testing';
import { Client } from 'pg';
import { client, until } from './support/http';
import { orgWithSandboxPhone } from './support/queue-phone';
import { startStack } from './support/stack';
const { startReceiver } = require('../../bench/webhooks/receiver.js');

jest.setTimeout(240_000);

/** A light mixed load: inbound messages and sends, one every `everyMs`, each remembered with its answer's status. */
function load(api: ReturnType<typeof client>, phoneId: string, everyMs: number) {
  const inbound: { body: string; chat: string; status: number }[] = [];
  const sends: { body: string; chat: string; status: number }[] = [];
  let running = true;
  let n = 0;
  const loop = (async () => {
    while (running) {
      const i = n++;
      const chat = randomDigits();
      const [a, b] = await Promise.all([
        api.post('/sandbox/messages', { chat_id: chat, body: `in ${i}` }, { 'x-phone': phoneId }).catch(() => ({ status: 0 })),
        api.post('/message/send', { chat_id: chat, message: `out ${i}` }, { 'x-phone': phoneId }).catch(() => ({ status: 0 })),
      ]);
      inbound.push({ body: `in ${i}`, chat, status: a.status });
      sends.push({ body: `out ${i}`, chat, status: b.status });
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return { inbound, sends, stop: async () => ((running = false), await loop) };
}

/**
 * Issue 32, the short version in the suite (one fault of each kind; bench/faults/run.js has all six,
 * three times each): a stack on a Postgres, a nats-server or a redis-server of the test's own, under a
 * steady trickle of inbound messages and sends with a webhook subscribed; the server crashes
 * (Postgres: immediate shutdown) or comes back on an empty store (NATS, Redis) after a few seconds. With no app
 * restarted by hand, no request meanwhile answers 500, every inbound message and send that was
 * accepted is stored once, and every accepted inbound message reaches the webhook.
 */
describe('faults of the ground under the stack', () => {
  const world = async (env: Record<string, string>) => {
    const receiver = await startReceiver();
    const stack = await startStack(
      {
        WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        SESSION_SCAN_MS: '200',
        QUEUE_PHONE_SCAN_MS: '200',
        QUEUE_SEND_INTERVAL_MS: '20',
        QUEUE_SEND_JITTER_MS: '0',
        ...env,
      },
      { services: ['phones', 'queue', 'webhooks-dispatcher'] },
    );
    const { api, phoneId } = await orgWithSandboxPhone(stack);
    expect((await api.post('/webhooks', { hookUrl: `${receiver.url}/hook`, integrationName: ['message.created'] })).status).toBe(201);
    return { receiver, stack, api, phoneId };
  };

  /** What must hold once the fault is over. */
  const holds = async (w: Awaited<ReturnType<typeof world>>, traffic: ReturnType<typeof load>) => {
    const all = [...traffic.inbound, ...traffic.sends];
    expect(all.filter((r) => r.status >= 500 && r.status !== 503)).toEqual([]);
    const acceptedIn = traffic.inbound.filter((r) => r.status === 200);
    const acceptedOut = traffic.sends.filter((r) => r.status === 200);
    expect(acceptedIn.length).toBeGreaterThan(10);
    const countAll = async () => {
      const rows = await w.stack.prisma.message.groupBy({
        by: ['body'],
        where: { phone_id: w.phoneId, body: { in: [...acceptedIn, ...acceptedOut].map((r) => r.body) } },
        _count: true,
      });
      return new Map(rows.map((r) => [r.body as string, r._count]));
    };
    const counts = await until(countAll, (m) => m.size === acceptedIn.length + acceptedOut.length, 60_000, 'every accepted message stored');
    expect([...counts.entries()].filter(([, c]) => c !== 1)).toEqual([]);
    const hooked = () =>
      new Set(w.receiver.requests.filter((r: any) => r.path === '/hook').map((r: any) => JSON.parse(r.body).data?.body as string));
    const missing = await until(
      async () => acceptedIn.filter((r) => !hooked().has(r.body)).map((r) => r.body),
      (m) => m.length === 0,
      60_000,
      'every accepted inbound message at the webhook',
    );
    expect(missing).toEqual([]);
  };

  it('Postgres crashes (immediate shutdown) and comes back: nothing accepted is lost or doubled, no 500', async () => {
    const pg = await PrivatePostgres.start();
    const admin = new Client({ connectionString: pg.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE mapi');
    await admin.end();
    await applyMigrations({ url: pg.url('mapi') });
    const w = await world({ DATABASE_URL: pg.url('mapi') });
    try {
      const traffic = load(w.api, w.phoneId, 50);
      await new Promise((r) => setTimeout(r, 2_000));
      await pg.stop('immediate');
      await new Promise((r) => setTimeout(r, 5_000));
      await pg.start();
      await new Promise((r) => setTimeout(r, 3_000));
      await traffic.stop();
      await holds(w, traffic);
    } finally {
      await w.stack.stop();
      await w.receiver.close();
      await pg.destroy();
    }
  });

  it('nats-server comes back on an empty store: streams re-created, nothing accepted lost or doubled, no 500', async () => {
    const nats = await PrivateNats.start();
    const w = await world({ NATS_URL: nats.url });
    try {
      const traffic = load(w.api, w.phoneId, 50);
      await new Promise((r) => setTimeout(r, 2_000));
      await nats.restart({ empty: true, kill: true });
      await new Promise((r) => setTimeout(r, 5_000));
      await traffic.stop();
      await holds(w, traffic);
    } finally {
      await w.stack.stop();
      await w.receiver.close();
      await nats.destroy();
    }
  });

  it('redis-server is killed and comes back empty: the send queues rebuilt, nothing accepted lost or doubled, no 500', async () => {
    const redis = await PrivateRedis.start();
    const w = await world({ REDIS_URL: redis.url });
    try {
      const traffic = load(w.api, w.phoneId, 50);
      await new Promise((r) => setTimeout(r, 2_000));
      await redis.kill();
      await new Promise((r) => setTimeout(r, 3_000));
      await redis.start({ empty: true });
      await new Promise((r) => setTimeout(r, 3_000));
      await traffic.stop();
      await holds(w, traffic);
    } finally {
      await w.stack.stop();
      await w.receiver.close();
      await redis.destroy();
    }
  });
});
