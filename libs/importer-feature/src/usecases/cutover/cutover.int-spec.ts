import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { Errors, type RequestContext } from '@mapi/contracts';
import { NatsRpcClient, NatsRpcServer, bindHandlers, connectNats, createLogger, rpcHandler } from '@mapi/platform';
import { createOrg, newUuid, testEnv, useTestDatabase } from '@mapi/testing';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { IdMapRepository } from '../../repositories/id-map-repository';
import { ImportRunRepository } from '../../repositories/import-run-repository';
import { Cutover } from './cutover.usecase';

// The owners' update RPCs, answered by stand-ins over real NATS: the subjects the cut-over calls.
const WebhookUpdate = { subject: 'webhooks.v1.subscriptions.update', service: 'webhooks', request: z.unknown(), response: z.unknown() };
const WorkflowUpdate = { subject: 'automation.v1.workflows.update', service: 'automation', request: z.unknown(), response: z.unknown() };

/**
 * POST /imports/{id}/cutover against Postgres (the run and its id map) and stand-in owners over
 * NATS: what the source had on is switched on once; one the owner refuses is listed under `failed`
 * with why, stays to switch on, and a repeat switches on only that one; another organization's
 * run is not found.
 */
describe('cut-over (integration)', () => {
  const t = useTestDatabase('importer_cutover');
  const logger = createLogger('cutover-spec', 'warn', new Writable({ write: (_c, _e, done) => done() }));
  const w: Record<string, string> = {};
  const calls: string[] = [];
  let refuse = new Set<string>();
  let nc: NatsConnection;
  let server: NatsRpcServer;
  let rpc: NatsRpcClient;
  const ctx = (org: string): RequestContext => ({ org_id: org, token_id: 'owner', phone_scope: null, phone: null, member: null });
  const source = 'https://hosted.example.com/v1#src-org';

  beforeAll(async () => {
    nc = await connectNats(testEnv.natsUrl(), 'cutover-spec');
    const ns = `cutover${randomBytes(3).toString('hex')}`;
    const answer = (kind: string) => async (req: unknown) => {
      const { params, body } = req as { params: Record<string, string>; body: Record<string, unknown> };
      const id = params.id ?? params.workflow_id;
      calls.push(`${kind} ${id} ${JSON.stringify(body)}`);
      if (refuse.has(id)) throw Errors.notFound(`${kind} ${id} not found`);
      return {};
    };
    server = new NatsRpcServer({
      nc,
      namespace: ns,
      logger,
      handlers: bindHandlers(
        [
          rpcHandler<void>()(WebhookUpdate, () => ({ execute: answer('webhook') })),
          rpcHandler<void>()(WorkflowUpdate, () => ({ execute: answer('workflow') })),
        ],
        undefined,
      ),
    });
    await server.listen();
    rpc = new NatsRpcClient(nc, ns, 5_000);
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    w.run = newUuid();
    [w.hookOn, w.hookOff, w.flowOn] = [newUuid(), newUuid(), newUuid()];
    await t.prisma.importRun.create({
      data: { import_id: w.run, org_id: w.org, source_url: 'https://hosted.example.com/v1', source_org: 'src-org', status: 'completed' },
    });
    const ids = new IdMapRepository(t.prisma);
    await ids.record(w.org, source, w.run, 'webhooks', [
      { source_id: 'h1', target_id: w.hookOn },
      { source_id: 'h2', target_id: w.hookOff },
    ]);
    await ids.record(w.org, source, w.run, 'workflows', [{ source_id: 'f1', target_id: w.flowOn }]);
    await ids.recordSwitches(w.org, source, 'webhooks', [
      { source_id: 'h1', on: true },
      { source_id: 'h2', on: false },
    ]);
    await ids.recordSwitches(w.org, source, 'workflows', [{ source_id: 'f1', on: true }]);
  });

  afterAll(async () => {
    await server.close();
    await rpc.close();
    await nc.drain();
  });

  const cutover = (org: string) =>
    new Cutover(new ImportRunRepository(t.prisma), new IdMapRepository(t.prisma), rpc).execute({
      ctx: ctx(org),
      params: { import_id: w.run },
    } as never);

  it('lists what an owner refused, with why, and switches on the rest; a repeat brings only the refused one', async () => {
    refuse = new Set([w.flowOn]);
    expect(await cutover(w.org)).toEqual({
      switched_on: { webhooks: 1, workflows: 0 },
      failed: [{ resource: 'workflows', id: w.flowOn, reason: `workflow ${w.flowOn} not found` }],
    });
    expect(calls).toEqual([`webhook ${w.hookOn} {"isSubscribed":true}`, `workflow ${w.flowOn} {"is_active":true}`]); // the one off at the source stays off
    refuse = new Set();
    calls.length = 0;
    expect(await cutover(w.org)).toEqual({ switched_on: { webhooks: 0, workflows: 1 }, failed: [] });
    expect(calls).toEqual([`workflow ${w.flowOn} {"is_active":true}`]);
    expect(await cutover(w.org)).toEqual({ switched_on: { webhooks: 0, workflows: 0 }, failed: [] });
  });

  it("another organization's run is not found, and nothing is switched on for it", async () => {
    calls.length = 0;
    await expect(cutover(w.other)).rejects.toMatchObject({ status: 404 });
    expect(calls).toEqual([]);
  });
});
