import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { ErrorCode, defineRpc } from '@mapi/contracts';
import { connect, type NatsConnection } from 'nats';
import { z } from 'zod';
import { createLogger } from '../logging/logger';
import { NatsRpcClient } from './rpc-client';
import { bindHandlers, rpcHandler } from './rpc-handlers';
import { NatsRpcServer } from './rpc-server';

jest.setTimeout(60_000);

const SlowRpc = defineRpc({
  subject: 'gone.v1.slow',
  service: 'gone',
  request: z.object({ ms: z.number() }),
  response: z.object({ ok: z.boolean() }),
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: { code?: string; status?: number }) => e,
  );

/**
 * A nats-server of the test's own (not @mapi/testing's PrivateNats: that lib depends on this one)
 * killed under a call: the call under way fails at once with 503 instead of waiting for its
 * timeout, calls made while the connection is down fail at once too, and once the server is back
 * calls go through again, with no client restarted.
 */
describe('NatsRpcClient when nats-server goes away (integration)', () => {
  const logger = createLogger('gone', 'warn', new Writable({ write: (_c, _e, done) => done() }));
  let port: number;
  let server: ChildProcess | undefined;
  const startNats = async () => {
    server = spawn(process.env.NATS_SERVER_BIN ?? 'nats-server', ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      const nc = await connect({ servers: `127.0.0.1:${port}`, reconnect: false, timeout: 500 }).catch(() => null);
      if (nc) return void (await nc.close());
      await sleep(100);
    }
    throw new Error('nats-server did not start');
  };
  const killNats = async () => {
    const s = server;
    if (!s || s.exitCode !== null) return;
    await new Promise((r) => (s.once('exit', r), s.kill('SIGKILL')));
  };

  beforeAll(async () => {
    port = await freePort();
    await startNats();
  });
  afterAll(killNats);

  it('fails the call under way and new calls with 503 at once, and serves again after the return', async () => {
    const opts = { servers: `127.0.0.1:${port}`, maxReconnectAttempts: -1, reconnectTimeWait: 100 };
    const [clientNc, serverNc]: NatsConnection[] = await Promise.all([connect(opts), connect(opts)]);
    const handlers = bindHandlers(
      [rpcHandler<void>()(SlowRpc, () => ({ execute: ({ ms }) => sleep(ms).then(() => ({ ok: true })) }))],
      undefined,
    );
    const rpcServer = new NatsRpcServer({ nc: serverNc, namespace: 'gone', handlers, logger });
    await rpcServer.listen();
    const client = new NatsRpcClient(clientNc, 'gone', 20_000, { unavailableRetryMs: 0 });
    try {
      expect(await client.call(SlowRpc, { ms: 1 })).toEqual({ ok: true });

      const underWay = failure(client.call(SlowRpc, { ms: 5_000 }));
      await sleep(200);
      const killedAt = Date.now();
      await killNats();
      expect(await underWay).toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE_ERROR, status: 503 });
      expect(Date.now() - killedAt).toBeLessThan(3_000); // not the 20 s timeout

      const during = Date.now();
      expect(await failure(client.call(SlowRpc, { ms: 1 }))).toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE_ERROR, status: 503 });
      expect(Date.now() - during).toBeLessThan(500);

      await startNats();
      const end = Date.now() + 15_000;
      let answer: unknown;
      while (Date.now() < end && !answer) answer = await client.call(SlowRpc, { ms: 1 }).catch(() => sleep(100).then(() => undefined));
      expect(answer).toEqual({ ok: true });
    } finally {
      await client.close();
      await rpcServer.close();
      await Promise.all([clientNc.close(), serverNc.close()]);
    }
  });
});
