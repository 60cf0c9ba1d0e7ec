import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { Writable } from 'node:stream';
import { ErrorCode, defineRpc } from '@mapi/contracts';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { createLogger } from '../logging/logger';
import { connectNats } from './connection';
import { NatsRpcClient } from './rpc-client';
import { bindHandlers, rpcHandler } from './rpc-handlers';
import { NatsRpcServer } from './rpc-server';

// Not from @mapi/testing: that lib depends on this one (an Nx build cycle).
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const CountRpc = defineRpc({
  subject: 'unavail.v1.count',
  service: 'unavail',
  request: z.object({ n: z.number() }),
  response: z.object({ seen: z.number() }),
});
const SilentRpc = defineRpc({ subject: 'unavail.v1.silent', service: 'unavail', request: z.object({}), response: z.object({}) });
const DependencyRpc = defineRpc({
  subject: 'unavail.v1.dependency',
  service: 'unavail',
  request: z.object({ fail: z.enum(['refused', 'bug']) }),
  response: z.object({}),
});

/** A real socket error: what a driver throws when its database's port refuses the connection. */
const refusedConnection = () =>
  new Promise<never>((_, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port: 1 });
    socket.once('error', reject);
  });

/**
 * A call that reaches no instance (a service restarting) is published again until one appears, within
 * the retry budget and the call's timeout; then 503, never a 504, and never executed twice.
 */
describe('NatsRpcClient while no instance serves the subject (integration)', () => {
  const logger = createLogger('unavail', 'warn', new Writable({ write: (_c, _e, done) => done() }));
  let clientNc: NatsConnection;
  let serverNc: NatsConnection;
  let executed: number[];
  const namespace = () => `unavail${randomBytes(3).toString('hex')}`;

  const startServer = async (ns: string) => {
    const handlers = bindHandlers(
      [
        rpcHandler<void>()(CountRpc, () => ({ execute: ({ n }) => (executed.push(n), { seen: executed.length }) })),
        rpcHandler<void>()(SilentRpc, () => ({ execute: () => new Promise((r) => setTimeout(() => r({}), 1_000)) })),
        rpcHandler<void>()(DependencyRpc, () => ({
          execute: ({ fail }) => (fail === 'refused' ? refusedConnection() : Promise.reject(new TypeError('x is undefined'))),
        })),
      ],
      undefined,
    );
    const server = new NatsRpcServer({ nc: serverNc, namespace: ns, handlers, logger });
    await server.listen();
    return server;
  };

  const failure = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('expected a failure');
      },
      (e: { code?: string; status?: number }) => e,
    );

  beforeAll(async () => {
    clientNc = await connectNats(natsUrl, 'unavail-client');
    serverNc = await connectNats(natsUrl, 'unavail-server');
  });
  beforeEach(() => (executed = []));
  afterAll(async () => {
    await clientNc.drain();
    await serverNc.drain();
  });

  it('waits for an instance that starts within the budget, and the request runs once', async () => {
    const ns = namespace();
    const client = new NatsRpcClient(clientNc, ns, 5_000, { unavailableRetryMs: 3_000 });
    const call = client.call(CountRpc, { n: 7 });
    await new Promise((r) => setTimeout(r, 400));
    const server = await startServer(ns);
    await expect(call).resolves.toEqual({ seen: 1 });
    expect(executed).toEqual([7]);
    await server.close();
    await client.close();
  });

  it('answers 503 once the budget is spent', async () => {
    const client = new NatsRpcClient(clientNc, namespace(), 5_000, { unavailableRetryMs: 300 });
    const started = Date.now();
    expect(await failure(client.call(CountRpc, { n: 1 }))).toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE_ERROR, status: 503 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(2_000);
    await client.close();
  });

  it('answers 503 at once with no budget', async () => {
    const client = new NatsRpcClient(clientNc, namespace(), 5_000, { unavailableRetryMs: 0 });
    const started = Date.now();
    expect(await failure(client.call(CountRpc, { n: 1 }))).toMatchObject({ status: 503 });
    expect(Date.now() - started).toBeLessThan(200);
    await client.close();
  });

  it('answers 503, not 504, when the call times out while still waiting for an instance', async () => {
    const client = new NatsRpcClient(clientNc, namespace(), 300, { unavailableRetryMs: 10_000 });
    expect(await failure(client.call(CountRpc, { n: 1 }))).toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE_ERROR, status: 503 });
    await client.close();
  });

  it('still answers 504 when an instance received the request and did not answer in time', async () => {
    const ns = namespace();
    const server = await startServer(ns);
    const client = new NatsRpcClient(clientNc, ns, 300, { unavailableRetryMs: 10_000 });
    expect(await failure(client.call(SilentRpc, {}))).toMatchObject({ code: ErrorCode.TIMEOUT_ERROR, status: 504 });
    await server.close();
    await client.close();
  });

  it('a handler whose database cannot be reached answers 503, a bug still 500', async () => {
    const ns = namespace();
    const server = await startServer(ns);
    const client = new NatsRpcClient(clientNc, ns, 5_000, { unavailableRetryMs: 0 });
    expect(await failure(client.call(DependencyRpc, { fail: 'refused' }))).toMatchObject({
      code: ErrorCode.SERVICE_UNAVAILABLE_ERROR,
      status: 503,
    });
    expect(await failure(client.call(DependencyRpc, { fail: 'bug' }))).toMatchObject({ code: ErrorCode.UNKNOWN_ERROR, status: 500 });
    await server.close();
    await client.close();
  });
});
