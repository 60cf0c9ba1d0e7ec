import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { defineRpc } from '@mapi/contracts';
import { createInbox, headers as natsHeaders, type Msg, type NatsConnection } from 'nats';
import { z } from 'zod';
import { createLogger } from '../logging/logger';
import { connectNats } from './connection';
import { NatsRpcClient } from './rpc-client';
import { REPLY_CHUNK_BYTES, RPC_STATUS_CONTINUE, RpcHeader } from './rpc-codec';
import { bindHandlers, rpcHandler } from './rpc-handlers';
import { NatsRpcServer } from './rpc-server';

// Not from @mapi/testing: that lib depends on this one (an Nx build cycle).
const testEnv = { natsUrl: () => process.env.NATS_URL ?? 'nats://127.0.0.1:4222' };
const randomSuffix = (bytes: number) => randomBytes(bytes).toString('hex');

const MiB = 1024 * 1024;
const UploadRpc = defineRpc({
  subject: 'testupload.v1.digest',
  service: 'testupload',
  request: z.object({ data: z.string() }),
  response: z.object({ sha256: z.string(), length: z.number(), replica: z.string(), echo: z.string().optional() }),
});
const uploadHandler = (execute: (req: { data: string }) => z.infer<typeof UploadRpc.response>) =>
  rpcHandler<void>()(UploadRpc, () => ({ execute }));
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * Requests larger than NATS max_payload travel in chunks, all to the one replica (of a queue group)
 * that took the first one; small requests are unchanged. Real nats-server.
 */
describe('NatsRpcClient/NatsRpcServer: chunked requests (integration)', () => {
  const namespace = `rpcchunk${randomSuffix(3)}`;
  const quiet = new Writable({ write: (_c, _e, done) => done() });
  const conns: NatsConnection[] = [];
  const servers: NatsRpcServer[] = [];
  const seen: Record<string, number> = {};
  let client: NatsRpcClient;
  let maxPayload: number;

  const startReplica = async (name: string, options: { maxRequestBytes?: number; echoSmall?: boolean } = {}) => {
    const nc = await connectNats(testEnv.natsUrl(), `chunk-test-${name}`);
    conns.push(nc);
    const handlers = bindHandlers(
      [
        uploadHandler((req) => {
          seen[name] = (seen[name] ?? 0) + 1;
          // A reply as large as the request: replies are chunked too.
          return { sha256: sha(req.data), length: req.data.length, replica: name, echo: req.data.length > 2 * MiB ? req.data : undefined };
        }),
      ],
      undefined,
    );
    const server = new NatsRpcServer({
      nc,
      namespace,
      handlers,
      logger: createLogger('rpc-test', 'info', quiet),
      validateReplies: true,
      maxRequestBytes: options.maxRequestBytes,
    });
    await server.listen();
    servers.push(server);
  };

  beforeAll(async () => {
    await startReplica('a');
    await startReplica('b');
    const nc = await connectNats(testEnv.natsUrl(), 'chunk-test-client');
    conns.push(nc);
    maxPayload = nc.info!.max_payload;
    client = new NatsRpcClient(nc, namespace, 20_000);
  });

  afterAll(async () => {
    await client?.close();
    for (const s of servers) await s.close();
    for (const nc of conns) await nc.drain();
  });

  it('carries a request of several MiB to one replica of the queue group, byte for byte, in parallel with others', async () => {
    const payloads = [0, 1, 2, 3].map(() => randomBytes(3 * MiB + 12_345).toString('base64')); // ~4 MiB of JSON each
    expect(payloads[0].length).toBeGreaterThan(3 * maxPayload);
    const replies = await Promise.all(payloads.map((data) => client.call(UploadRpc, { data })));
    replies.forEach((reply, i) => {
      expect(reply.sha256).toBe(sha(payloads[i]));
      expect(reply.length).toBe(payloads[i].length);
      expect(reply.echo).toBe(payloads[i]); // and the large reply came back whole
    });
    // Both replicas got work: the head went through the queue group, the rest followed to the same replica.
    expect((seen.a ?? 0) + (seen.b ?? 0)).toBe(4);
  });

  it('answers in reply chunks of at most REPLY_CHUNK_BYTES (far under max_payload), which the client joins in order', async () => {
    const sent: { chunk: number; chunks: number; bytes: number }[] = [];
    const replicas = conns.slice(0, 2);
    const originals = replicas.map((nc) => nc.publish.bind(nc));
    replicas.forEach((nc, i) => {
      nc.publish = (subject, payload, opts) => {
        const chunk = opts?.headers?.get(RpcHeader.chunk);
        if (chunk)
          sent.push({ chunk: Number(chunk), chunks: Number(opts!.headers!.get(RpcHeader.chunks)), bytes: (payload as Uint8Array).length });
        return originals[i](subject, payload, opts);
      };
    });
    try {
      const data = randomBytes(1_700_000).toString('base64'); // ~2.3 MB: echoed back, so the reply is as large
      const reply = await client.call(UploadRpc, { data });
      expect(reply.echo).toBe(data);
    } finally {
      replicas.forEach((nc, i) => (nc.publish = originals[i]));
    }
    expect(sent.length).toBeGreaterThan((2 * MiB) / REPLY_CHUNK_BYTES);
    expect(Math.max(...sent.map((c) => c.bytes))).toBeLessThanOrEqual(REPLY_CHUNK_BYTES);
    expect(sent.map((c) => c.chunk)).toEqual(sent.map((_, i) => i));
    expect(new Set(sent.map((c) => c.chunks))).toEqual(new Set([sent.length]));
  });

  it('sends a request that fits in one message without chunk headers, as before', async () => {
    const nc = conns[conns.length - 1];
    const heads: Array<string | undefined> = [];
    const sub = nc.subscribe(`${namespace}.testupload.v1.raw`, {
      callback: (_e, m) => heads.push(m.headers?.get(RpcHeader.chunks) || undefined),
    });
    await nc.flush();
    const raw = defineRpc({ subject: 'testupload.v1.raw', service: 'testupload', request: z.object({}).loose(), response: z.object({}) });
    await expect(client.call(raw, { data: 'x'.repeat(1000) }, { timeoutMs: 300 })).rejects.toMatchObject({ status: 504 });
    sub.unsubscribe();
    expect(heads).toEqual([undefined]);
  });

  it('answers a malformed chunked head with 422, and a request whose rest never comes with 504', async () => {
    const ns = `${namespace}t`;
    const nc = await connectNats(testEnv.natsUrl(), 'chunk-test-timeout');
    conns.push(nc);
    let handled = 0;
    const handlers = bindHandlers([uploadHandler(() => ((handled += 1), { sha256: '', length: 0, replica: 'timeout' }))], undefined);
    const server = new NatsRpcServer({ nc, namespace: ns, handlers, logger: createLogger('rpc-test', 'info', quiet), chunkTimeoutMs: 200 });
    await server.listen();
    servers.push(server);
    // A head sent by hand: the replies come to our own inbox.
    const head = async (chunks: string, wanted: number) => {
      const inbox = createInbox();
      const replies: Msg[] = [];
      const sub = nc.subscribe(inbox, { callback: (_e, m) => replies.push(m) });
      const h = natsHeaders();
      h.set(RpcHeader.chunks, chunks);
      nc.publish(`${ns}.${UploadRpc.subject}`, Buffer.from('{"data":"'), { reply: inbox, headers: h });
      const end = Date.now() + 3_000;
      while (replies.length < wanted && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      sub.unsubscribe();
      return replies.map((m) => ({
        status: m.headers?.get(RpcHeader.status),
        body: m.data.length ? JSON.parse(Buffer.from(m.data).toString()) : null,
      }));
    };
    const malformed = await head('three', 1);
    expect(malformed).toEqual([{ status: 'error', body: expect.objectContaining({ code: 'VALIDATION_ERROR', status: 422 }) }]);
    const abandoned = await head('3', 2); // "continue", then nothing more is sent
    expect(abandoned[0].status).toBe(RPC_STATUS_CONTINUE);
    expect(abandoned[1]).toEqual({ status: 'error', body: expect.objectContaining({ code: 'TIMEOUT_ERROR', status: 504 }) });
    expect(handled).toBe(0);
  });

  it("refuses a chunked request over the server's limit with 413, before taking its chunks", async () => {
    const limited = `${namespace}x`;
    const nc = await connectNats(testEnv.natsUrl(), 'chunk-test-limited');
    conns.push(nc);
    const handlers = bindHandlers([uploadHandler(() => ({ sha256: '', length: 0, replica: 'limited' }))], undefined);
    const server = new NatsRpcServer({
      nc,
      namespace: limited,
      handlers,
      logger: createLogger('rpc-test', 'info', quiet),
      maxRequestBytes: 2 * MiB,
    });
    await server.listen();
    servers.push(server);
    const limitedClient = new NatsRpcClient(conns[2], limited, 10_000);
    await expect(limitedClient.call(UploadRpc, { data: 'y'.repeat(5 * MiB) })).rejects.toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE_ERROR',
    });
    expect(await limitedClient.call(UploadRpc, { data: 'y'.repeat(MiB / 2) })).toMatchObject({ replica: 'limited' });
    await limitedClient.close();
  });
});
