import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Errors, type RequestContext } from '@mapi/contracts';
import { NatsRpcClient, NatsRpcServer, bindHandlers, connectNats, createLogger, rpcHandler } from '@mapi/platform';
import { testEnv } from '@mapi/testing';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { Owners, OWNER_RPCS } from './owners';

const ctx: RequestContext = {
  org_id: '33333333-3333-4333-8333-333333333333',
  token_id: 'import-run',
  phone_scope: null,
  phone: null,
  member: null,
};
// The labels owner's subject, answered by a stand-in that takes any body.
const LabelsRpc = { ...OWNER_RPCS.labels, request: z.unknown() };

/**
 * The importer's writes to an owner over real NATS: a batch an owner cannot take now (503: restarting,
 * its database away) is sent again with back-off and written once it can; any other refusal, or an
 * owner unavailable past the retries, ends the write with that error (the run stops, a rerun resumes).
 */
describe("Owners: batches to an owner's import RPC (integration)", () => {
  const logger = createLogger('owners-spec', 'warn', new Writable({ write: (_c, _e, done) => done() }));
  let nc: NatsConnection;
  let seen: { items: number; ctx: RequestContext }[];
  let answer: (n: number) => 'ok' | 'unavailable' | 'refused';

  const serve = async (ns: string) => {
    const handlers = bindHandlers(
      [
        rpcHandler<void>()(LabelsRpc, () => ({
          execute: async (req: unknown) => {
            const { ctx: c, body } = req as { ctx: RequestContext; body: { items: { source_id: string }[] } };
            const outcome = answer(seen.length);
            seen.push({ items: body.items.length, ctx: c });
            if (outcome === 'unavailable') throw Errors.unavailable('the database is away');
            if (outcome === 'refused') throw Errors.notFound('no such organization');
            return { results: body.items.map((i) => ({ source_id: i.source_id, target_id: i.source_id, outcome: 'created' as const })) };
          },
        })),
      ],
      undefined,
    );
    const server = new NatsRpcServer({ nc, namespace: ns, handlers, logger });
    await server.listen();
    return server;
  };

  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ source_id: `L${i}`, name: `label ${i}` }));

  beforeAll(async () => {
    nc = await connectNats(testEnv.natsUrl(), 'owners-spec');
  });
  beforeEach(() => (seen = []));
  afterAll(async () => {
    await nc.drain();
  });

  it("splits a write into batches of 500 in the target organization's name, answering in order", async () => {
    const ns = `owners${randomBytes(3).toString('hex')}`;
    answer = () => 'ok';
    const server = await serve(ns);
    const rpc = new NatsRpcClient(nc, ns, 5_000);
    try {
      const results = await new Owners(rpc, ctx).write('labels', items(1_200));
      expect(seen.map((s) => s.items)).toEqual([500, 500, 200]);
      expect(seen.every((s) => s.ctx.org_id === ctx.org_id)).toBe(true);
      expect(results.map((r) => r.source_id)).toEqual(items(1_200).map((i) => i.source_id));
    } finally {
      await server.close();
      await rpc.close();
    }
  });

  it('asks again with back-off while the owner answers 503, and the batch is written once it can', async () => {
    const ns = `owners${randomBytes(3).toString('hex')}`;
    answer = (n) => (n < 2 ? 'unavailable' : 'ok');
    const server = await serve(ns);
    const rpc = new NatsRpcClient(nc, ns, 5_000);
    try {
      const started = Date.now();
      const results = await new Owners(rpc, ctx, 5_000, { attempts: 4, firstMs: 100 }).write('labels', items(3));
      expect(results.map((r) => r.outcome)).toEqual(['created', 'created', 'created']);
      expect(seen).toHaveLength(3);
      expect(Date.now() - started).toBeGreaterThanOrEqual(300); // waited 100 ms, then 200 ms
    } finally {
      await server.close();
      await rpc.close();
    }
  });

  it('gives up with the 503 after its tries, and stops at once on any other refusal', async () => {
    const ns = `owners${randomBytes(3).toString('hex')}`;
    const server = await serve(ns);
    const rpc = new NatsRpcClient(nc, ns, 5_000);
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => {
          throw new Error('expected a failure');
        },
        (e: { status?: number; message?: string }) => e,
      );
    try {
      answer = () => 'unavailable';
      expect(await failure(new Owners(rpc, ctx, 5_000, { attempts: 3, firstMs: 20 }).write('labels', items(1)))).toMatchObject({
        status: 503,
      });
      expect(seen).toHaveLength(3);
      seen = [];
      answer = () => 'refused';
      expect(await failure(new Owners(rpc, ctx, 5_000, { attempts: 3, firstMs: 20 }).write('labels', items(1)))).toMatchObject({
        status: 404,
      });
      expect(seen).toHaveLength(1);
    } finally {
      await server.close();
      await rpc.close();
    }
  });
});
