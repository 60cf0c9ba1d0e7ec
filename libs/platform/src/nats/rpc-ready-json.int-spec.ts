import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { defineRpc, ReadyJson } from '@mapi/contracts';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { createLogger } from '../logging/logger';
import { connectNats } from './connection';
import { NatsRpcClient } from './rpc-client';
import { bindHandlers, rpcHandler } from './rpc-handlers';
import { NatsRpcServer } from './rpc-server';

// Not from @mapi/testing: that lib depends on this one (an Nx build cycle).
const natsUrl = () => process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const ReadyRpc = defineRpc({
  subject: 'testready.v1.page',
  service: 'testready',
  request: z.object({ json: z.string(), bytes: z.boolean().optional() }),
  response: z.object({ rows: z.array(z.object({ i: z.number() })) }),
});

/**
 * A use case that already holds its answer's JSON (ReadyJson) has it sent as it is: the same bytes,
 * not re-serialized (spacing and key order kept, which JSON.stringify of the parsed value would not),
 * as text or as bytes, chunked and compressed like any reply. With validateReplies the JSON is still
 * parsed and held to the contract.
 */
describe('NatsRpcServer: ReadyJson replies (integration)', () => {
  const namespace = `rpcready${randomBytes(3).toString('hex')}`;
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  const conns: NatsConnection[] = [];
  const clients: NatsRpcClient[] = [];
  const servers: NatsRpcServer[] = [];

  const start = async (validateReplies: boolean) => {
    const ns = `${namespace}${validateReplies ? 'v' : 'p'}`;
    const nc = await connectNats(natsUrl(), 'ready-test-server');
    conns.push(nc);
    const handlers = bindHandlers(
      [
        rpcHandler<void>()(ReadyRpc, () => ({
          execute: (req: { json: string; bytes?: boolean }) =>
            new ReadyJson<{ rows: { i: number }[] }>(req.bytes ? new TextEncoder().encode(req.json) : req.json),
        })),
      ],
      undefined,
    );
    const server = new NatsRpcServer({ nc, namespace: ns, handlers, logger: createLogger('rpc-test', 'info', quiet), validateReplies });
    await server.listen();
    servers.push(server);
    const cnc = await connectNats(natsUrl(), 'ready-test-client');
    conns.push(cnc);
    const client = new NatsRpcClient(cnc, ns, 20_000);
    clients.push(client);
    return client;
  };
  let checked: NatsRpcClient;
  let unchecked: NatsRpcClient;

  beforeAll(async () => {
    checked = await start(true);
    unchecked = await start(false);
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
    await Promise.all(conns.map((c) => c.close()));
  });

  // spacing and a key order JSON.stringify(JSON.parse(...)) would change: proof the bytes are not re-serialized
  const odd = '{ "rows" : [{"i": 1, "x": "é 😀"}, {"i":2}] }';

  it.each([false, true])('sends the JSON as it is (given as bytes: %s)', async (bytes) => {
    const reply = await checked.callRaw(ReadyRpc, { json: odd, bytes });
    expect(reply.httpStatus).toBeUndefined();
    expect(reply.body.toString('utf8')).toBe(odd);
  });

  it('chunks and compresses a large one like any reply, byte for byte', async () => {
    const big = `{"rows":[${Array.from({ length: 40_000 }, (_, i) => `{"i":${i}}`).join(',')}]}`;
    const plain = await checked.callRaw(ReadyRpc, { json: big });
    expect(plain.body.toString('utf8')).toBe(big);
    const gz = await checked.callRaw(ReadyRpc, { json: big }, { acceptEncoding: 'gzip' });
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).toString('utf8')).toBe(big);
  });

  it('holds the JSON to the contract with validateReplies: a breach or invalid JSON is a 500', async () => {
    await expect(checked.callRaw(ReadyRpc, { json: '{"rows":[{"i":"one"}]}' })).rejects.toMatchObject({ status: 500 });
    await expect(checked.callRaw(ReadyRpc, { json: '{"rows":[' })).rejects.toMatchObject({ status: 500 });
  });

  it('does not parse it without validateReplies (production): the bytes go as they are', async () => {
    const reply = await unchecked.callRaw(ReadyRpc, { json: '{"rows":[{"i":"one"}]}' });
    expect(reply.body.toString('utf8')).toBe('{"rows":[{"i":"one"}]}');
  });
});
