import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { defineRpc, HttpReply } from '@mapi/contracts';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { createLogger } from '../logging/logger';
import { connectNats } from './connection';
import { NatsRpcClient } from './rpc-client';
import { bindHandlers, rpcHandler } from './rpc-handlers';
import { NatsRpcServer } from './rpc-server';
import { REPLY_COMPRESSION_MIN_BYTES } from './reply-encoding';

// Not from @mapi/testing: that lib depends on this one (an Nx build cycle).
const natsUrl = () => process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const PageRpc = defineRpc({
  subject: 'testpage.v1.page',
  service: 'testpage',
  request: z.object({ rows: z.number().int(), status: z.number().int().optional(), fail: z.boolean().optional() }),
  response: z.object({ rows: z.array(z.object({ i: z.number(), text: z.string() })) }),
});

/**
 * A caller that passes a large reply on (the gateway) may ask for it compressed: the service then
 * gzips or brotli-compresses a JSON reply of REPLY_COMPRESSION_MIN_BYTES or more before the hop, over
 * as many chunks as it takes. Smaller replies, errors, and callers that do not ask get plain JSON.
 */
describe('NatsRpcServer: compressed replies (integration)', () => {
  const namespace = `rpcgz${randomBytes(3).toString('hex')}`;
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  const conns: NatsConnection[] = [];
  let server: NatsRpcServer;
  let client: NatsRpcClient;

  const page = (rows: number) => ({
    rows: Array.from({ length: rows }, (_, i) => ({ i, text: `row ${i} of a page that repeats itself a good deal` })),
  });

  beforeAll(async () => {
    const nc = await connectNats(natsUrl(), 'gz-test-server');
    conns.push(nc);
    const handlers = bindHandlers(
      [
        rpcHandler<void>()(PageRpc, () => ({
          execute: (req: { rows: number; status?: number; fail?: boolean }) => {
            if (req.fail) throw new Error('boom');
            return req.status ? new HttpReply(req.status, page(req.rows)) : page(req.rows);
          },
        })),
      ],
      undefined,
    );
    server = new NatsRpcServer({ nc, namespace, handlers, logger: createLogger('rpc-test', 'info', quiet), validateReplies: true });
    await server.listen();
    const cnc = await connectNats(natsUrl(), 'gz-test-client');
    conns.push(cnc);
    client = new NatsRpcClient(cnc, namespace, 20_000);
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await Promise.all(conns.map((c) => c.close()));
  });

  const bigRows = 20_000; // ≈ 1.2 MB of JSON: several reply chunks plain, one or two compressed

  it.each([
    ['gzip', gunzipSync],
    ['br', brotliDecompressSync],
  ] as const)('compresses a large reply in %s when asked, and it decodes to the same JSON', async (encoding, decode) => {
    const reply = await client.callRaw(PageRpc, { rows: bigRows }, { acceptEncoding: encoding });
    expect(reply.encoding).toBe(encoding);
    const plain = decode(reply.body);
    expect(plain.length).toBeGreaterThanOrEqual(REPLY_COMPRESSION_MIN_BYTES);
    expect(JSON.parse(plain.toString('utf8'))).toEqual(page(bigRows));
    expect(reply.body.length * 8).toBeLessThan(plain.length);
  });

  it('keeps the status of an HttpReply beside the encoding', async () => {
    const reply = await client.callRaw(PageRpc, { rows: bigRows, status: 201 }, { acceptEncoding: 'gzip' });
    expect(reply.httpStatus).toBe(201);
    expect(reply.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(reply.body).toString('utf8')).rows).toHaveLength(bigRows);
  });

  it('sends plain JSON when not asked, or when the reply is under the threshold', async () => {
    const notAsked = await client.callRaw(PageRpc, { rows: bigRows });
    expect(notAsked.encoding).toBeUndefined();
    expect(JSON.parse(notAsked.body.toString('utf8'))).toEqual(page(bigRows));
    const small = await client.callRaw(PageRpc, { rows: 3 }, { acceptEncoding: 'br' });
    expect(small.encoding).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toEqual(page(3));
  });

  it('never compresses for call(), which parses the reply itself', async () => {
    await expect(client.call(PageRpc, { rows: bigRows })).resolves.toEqual(page(bigRows));
  });

  it('answers errors as plain envelopes whatever was asked', async () => {
    await expect(client.callRaw(PageRpc, { rows: 1, fail: true }, { acceptEncoding: 'gzip' })).rejects.toMatchObject({ status: 500 });
  });
});
