import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { ErrorCode, defineRpc } from '@mapi/contracts';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { natsIndicator } from '../health/indicators';
import { createLogger } from '../logging/logger';
import { connectNats } from '../nats/connection';
import { NatsRpcClient } from '../nats/rpc-client';
import { bindHandlers, rpcHandler } from '../nats/rpc-handlers';
import { NatsRpcServer } from '../nats/rpc-server';
import { startRpcService, type RpcService } from './start-rpc-service';

// Not from @mapi/testing: that lib depends on this one (an Nx build cycle).
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const EchoRpc = defineRpc({
  subject: 'svctest.v1.echo',
  service: 'svctest',
  request: z.object({ text: z.string() }),
  response: z.object({ text: z.string() }),
});

const ECHO_HANDLERS = [rpcHandler<void>()(EchoRpc, () => ({ execute: (r) => ({ text: r.text.toUpperCase() }) }))];

const ready = async (svc: RpcService) => {
  const res = await fetch(`http://127.0.0.1:${(svc.health.address() as AddressInfo).port}/health/ready`);
  return { status: res.status, body: (await res.json()) as { status: string; shutting_down?: boolean } };
};

/** startRpcService against a real nats-server: it answers, reports ready, and shuts down in the fixed order. */
describe('startRpcService (integration)', () => {
  const namespace = `svc${randomBytes(3).toString('hex')}`;
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('svc-test', 'info', new Writable({ write: (c, _e, done) => (lines.push(JSON.parse(String(c))), done()) }));
  let clientNc: NatsConnection;
  let client: NatsRpcClient;

  beforeAll(async () => {
    clientNc = await connectNats(natsUrl, 'svc-test-client');
    client = new NatsRpcClient(clientNc, namespace, 2_000, { unavailableRetryMs: 0 });
  });
  afterAll(async () => {
    await client.close();
    await clientNc.drain();
  });

  it('answers its contracts, is ready until shutdown starts, then runs the steps in order', async () => {
    const nc = await connectNats(natsUrl, 'svc-test');
    const order: string[] = [];
    let shutdown: () => Promise<void> = () => Promise.reject(new Error('shutdown not registered'));
    let releaseStop!: () => void;
    const stopBlocked = new Promise<void>((resolve) => (releaseStop = resolve));
    let stopReached!: () => void;
    const inStop = new Promise<void>((resolve) => (stopReached = resolve));
    const originalDrain = nc.drain.bind(nc);
    jest.spyOn(nc, 'drain').mockImplementation(async () => {
      order.push('nats.drain');
      return originalDrain();
    });

    const svc = await startRpcService({
      name: 'svctest',
      nc,
      namespace,
      logger,
      nodeEnv: 'test',
      rpc: { handlers: bindHandlers(ECHO_HANDLERS, undefined) },
      start: () => void order.push('start'),
      health: { host: '127.0.0.1', port: 0, indicators: [natsIndicator(nc)] },
      readyFields: { extra: 1 },
      beforeClose: [() => void order.push('beforeClose')],
      stop: [
        async () => {
          // The RPC server is closed by now: nobody answers the subject any more.
          await expect(client.call(EchoRpc, { text: 'late' })).rejects.toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE_ERROR });
          order.push('stop 1');
          stopReached();
          await stopBlocked;
        },
        () => void order.push('stop 2'),
      ],
      disconnect: [() => void order.push('disconnect 1'), async () => void order.push('disconnect 2')],
      registerShutdown: (_logger, stop) => (shutdown = stop),
    });
    // Marks where the RPC server closed in the shutdown order.
    const originalClose = NatsRpcServer.prototype.close;
    jest.spyOn(NatsRpcServer.prototype, 'close').mockImplementation(function (this: NatsRpcServer) {
      order.push('server.close');
      return originalClose.call(this);
    });

    expect(order).toEqual(['start']);
    expect(lines.find((l) => l.msg === 'svctest service ready')).toMatchObject({
      health_port: (svc.health.address() as AddressInfo).port,
      extra: 1,
    });
    await expect(client.call(EchoRpc, { text: 'hi' })).resolves.toEqual({ text: 'HI' });
    expect(await ready(svc)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(svc.isShuttingDown()).toBe(false);

    const done = shutdown();
    await inStop;
    expect(svc.isShuttingDown()).toBe(true);
    expect(await ready(svc)).toMatchObject({ status: 503, body: { shutting_down: true } });
    expect(svc.health.listening).toBe(true); // liveness answers until the very end
    releaseStop();
    await done;

    expect(order).toEqual(['start', 'beforeClose', 'server.close', 'stop 1', 'stop 2', 'nats.drain', 'disconnect 1', 'disconnect 2']);
    expect(nc.isClosed()).toBe(true);
    expect(svc.health.listening).toBe(false);
  });

  it('without rpc it starts no RPC server but still serves health and runs the shutdown', async () => {
    const nc = await connectNats(natsUrl, 'svc-test-norpc');
    const order: string[] = [];
    let shutdown: () => Promise<void> = () => Promise.reject(new Error('shutdown not registered'));
    const svc = await startRpcService({
      name: 'svctest-worker',
      nc,
      namespace,
      logger,
      nodeEnv: 'test',
      health: { host: '127.0.0.1', port: 0, indicators: [natsIndicator(nc)] },
      stop: [() => void order.push('stop')],
      disconnect: [() => void order.push('disconnect')],
      registerShutdown: (_logger, stop) => (shutdown = stop),
    });
    expect(svc.server).toBeUndefined();
    await expect(client.call(EchoRpc, { text: 'hi' })).rejects.toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE_ERROR });
    expect(await ready(svc)).toMatchObject({ status: 200 });
    await shutdown();
    expect(order).toEqual(['stop', 'disconnect']);
    expect(nc.isClosed()).toBe(true);
    expect(svc.health.listening).toBe(false);
  });

  it('a failing stop step fails the shutdown (the signal handler then exits 1) and runs no later step', async () => {
    const nc = await connectNats(natsUrl, 'svc-test-failing');
    const order: string[] = [];
    let shutdown: () => Promise<void> = () => Promise.reject(new Error('shutdown not registered'));
    const svc = await startRpcService({
      name: 'svctest-failing',
      nc,
      namespace,
      logger,
      nodeEnv: 'test',
      health: { host: '127.0.0.1', port: 0, indicators: [] },
      stop: [
        () => {
          throw new Error('worker would not stop');
        },
        () => void order.push('stop 2'),
      ],
      disconnect: [() => void order.push('disconnect')],
      registerShutdown: (_logger, stop) => (shutdown = stop),
    });
    await expect(shutdown()).rejects.toThrow('worker would not stop');
    expect(order).toEqual([]);
    expect(svc.isShuttingDown()).toBe(true);
    svc.health.close();
    await nc.close();
  });
});
