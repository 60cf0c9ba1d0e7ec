import { type WorkflowActionInput } from '@mapi/contracts';
import { createPrismaClient, type Prisma, type PrismaClient } from '@mapi/db';
import type { DomainEvent } from '@mapi/events';
import { createOrg, newUuid, randomSuffix, useTestDatabase } from '@mapi/testing';
import pino from 'pino';
import { WorkflowRepository } from '../repositories/workflow-repository';
import type { RpcCaller } from './actions/action-context';
import { startRuns } from './event-intake';
import { RunStore } from './run-store';
import { StepExecutor } from './step-executor';
import { WorkerLiveness } from './worker-liveness';

/**
 * The intake against Postgres: the per-organization runs-per-minute limit counted in
 * automation_run_counts holds exactly when two intakes (two clients, as two replicas) start runs of one
 * organization at the same moment, another organization is not held back by it, and the window
 * passes; the per-chat loop guard holds under the same race; workflows limited to phones (by id or
 * number) take only their phones' events; first steps handed to the local executor run once, at once,
 * and a dead executor's handed steps are taken over by another.
 */
describe('automation intake (integration)', () => {
  const logger = pino({ level: 'silent' });
  const t = useTestDatabase('automation_intake', { poolSize: 6 });
  const executors: StepExecutor[] = [];
  let other: PrismaClient;
  beforeAll(async () => {
    other = createPrismaClient({ url: t.db.url, poolSize: 4 });
  });
  afterAll(async () => {
    for (const e of executors) await e.stop();
    await other?.$disconnect();
  });
  // each test runs only its own steps: what an earlier one left pending is set aside
  beforeEach(() => t.prisma.$executeRaw`UPDATE automation_steps SET status = 'skipped' WHERE status = 'pending'`);

  const sends: { key: string; message: string }[] = [];
  const rpc = {
    call: (async (contract: { subject: string }, payload: { headers: Record<string, string>; body: { message: string } }) => {
      if (contract.subject !== 'queue.v1.send') throw new Error(`unexpected RPC ${contract.subject}`);
      sends.push({ key: payload.headers['idempotency-key'], message: payload.body.message });
      return { queue_id: newUuid(), queue_position: '1', unique_id: 'u' };
    }) as unknown as RpcCaller['call'],
  } as RpcCaller;
  const send = (message: string): WorkflowActionInput => ({
    id: 'reply',
    action_metadata: { type: 'send_message_to_chat', metadata: { message, chat_id: 'trigger_chat' } },
    next: null,
  });
  const workflow = (org: string, meta: Record<string, unknown> = {}, message = 'hi') =>
    new WorkflowRepository(t.prisma).create(
      org,
      newUuid(),
      {
        name: `wf ${randomSuffix(2)}`,
        trigger: 'message.created',
        is_active: true,
        trigger_metadata: { org_phones: [], allow_internal_messages: false, first_action_id: 'reply', ...meta } as Prisma.InputJsonValue,
        actions: [send(message)] as unknown as Prisma.InputJsonValue,
      },
      'test',
    );
  const event = (org: string, over: Record<string, unknown> = {}, phone = 'phone-1'): DomainEvent => ({
    event_id: newUuid(),
    event_type: 'message.created',
    org_id: org,
    phone_id: phone,
    created_at: new Date().toISOString(),
    data: {
      message_id: `m-${randomSuffix(3)}`,
      chat_id: `${Math.floor(Math.random() * 1e12)}@c.us`,
      org_phone: '14155550100',
      from_me: false,
      body: 'hello',
      ...over,
    } as never,
  });
  const statuses = async (workflowId: string) =>
    (await t.prisma.automationRun.findMany({ where: { workflow_id: workflowId } })).map((r) => r.status).sort();
  const count = (xs: string[], s: string) => xs.filter((x) => x === s).length;

  it('two intakes racing for one organization admit exactly its limit per minute; another organization is not held back; the window passes', async () => {
    const busy = (await createOrg(t.prisma)).id;
    const calm = (await createOrg(t.prisma)).id;
    const wf = await workflow(busy);
    const calmWf = await workflow(calm);
    const limits = { runsPerMinute: 7, chatRunsPerMinute: 100 };
    // 3 rounds of two intakes at once, 4 events each: 24 runs offered, 7 admitted
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        startRuns(
          t.prisma,
          new RunStore(t.prisma),
          Array.from({ length: 4 }, () => event(busy)),
          limits,
        ),
        startRuns(
          other,
          new RunStore(other),
          Array.from({ length: 4 }, () => event(busy)),
          limits,
        ),
      ]);
    }
    const busyRuns = await statuses(wf.id);
    expect([count(busyRuns, 'running'), count(busyRuns, 'skipped')]).toEqual([7, 17]);
    const skipped = await t.prisma.automationRun.findMany({ where: { workflow_id: wf.id, status: 'skipped' } });
    expect(new Set(skipped.map((r) => r.reason))).toEqual(new Set(["over the organization's limit of 7 runs per minute"]));
    expect(await t.prisma.automationStep.count({ where: { run_id: { in: skipped.map((r) => r.run_id) } } })).toBe(0);
    // the counter holds what was admitted, for this organization only
    const counted = await t.prisma.automationRunCount.aggregate({ where: { org_id: busy }, _sum: { runs: true } });
    expect(counted._sum.runs).toBe(7);

    await startRuns(t.prisma, new RunStore(t.prisma), [event(calm), event(calm)], limits);
    expect(await statuses(calmWf.id)).toEqual(['running', 'running']);

    // a minute later (its seconds moved back past the window) the organization starts runs again, up to its limit
    await t.prisma.$executeRaw`UPDATE automation_run_counts SET second = second - 61 WHERE org_id = ${busy}::uuid`;
    await startRuns(
      t.prisma,
      new RunStore(t.prisma),
      Array.from({ length: 9 }, () => event(busy)),
      limits,
    );
    const later = await statuses(wf.id);
    expect([count(later, 'running'), count(later, 'skipped')]).toEqual([14, 19]);
    // rows older than the window are gone: the table keeps about a minute per organization
    expect(
      await t.prisma.automationRunCount.count({ where: { org_id: busy, second: { lt: BigInt(Math.floor(Date.now() / 1000) - 61) } } }),
    ).toBe(0);
  });

  it('two intakes racing on one chat admit the loop guard of runs per workflow and chat, no more', async () => {
    const org = (await createOrg(t.prisma)).id;
    const wf = await workflow(org);
    const chat = '14155557777@c.us';
    const limits = { runsPerMinute: 1_000, chatRunsPerMinute: 3 };
    await Promise.all([
      startRuns(
        t.prisma,
        new RunStore(t.prisma),
        Array.from({ length: 3 }, () => event(org, { chat_id: chat })),
        limits,
      ),
      startRuns(
        other,
        new RunStore(other),
        Array.from({ length: 3 }, () => event(org, { chat_id: chat })),
        limits,
      ),
    ]);
    await startRuns(t.prisma, new RunStore(t.prisma), [event(org, { chat_id: chat }), event(org, { chat_id: 'another@c.us' })], limits);
    const runs = await statuses(wf.id);
    expect([count(runs, 'running'), count(runs, 'skipped')]).toEqual([4, 4]);
  });

  it("workflows limited to phones take only their phones' events, by phone id or by number", async () => {
    const org = (await createOrg(t.prisma)).id;
    const byId = await workflow(org, { org_phones: ['phone-1'] });
    const byNumber = await workflow(org, { org_phones: ['+1 (415) 555-0100'] });
    const elsewhere = await workflow(org, { org_phones: ['phone-2', '14155550199'] });
    const everywhere = await workflow(org);
    await startRuns(t.prisma, new RunStore(t.prisma), [event(org, {}, 'phone-1'), event(org, { org_phone: '14155550100' }, 'phone-3')], {
      runsPerMinute: 100,
      chatRunsPerMinute: 100,
    });
    expect((await statuses(byId.id)).length).toBe(1);
    expect((await statuses(byNumber.id)).length).toBe(2);
    expect((await statuses(elsewhere.id)).length).toBe(0);
    expect((await statuses(everywhere.id)).length).toBe(2);
  });

  const executor = (db: PrismaClient, handoffMax = 50) => {
    const e = new StepExecutor(new RunStore(db), rpc, logger, {
      batch: 10,
      leaseMs: 60_000,
      maxAttempts: 3,
      idlePollMs: 30_000,
      fallbackPollMs: 500,
      livenessUrl: t.db.url,
      ownerCheckMs: 100,
      handoffMax,
    });
    executors.push(e);
    return e;
  };

  it("first steps handed to the local executor are claimed in the intake's transaction (no other executor takes them) and run once, at once", async () => {
    const org = (await createOrg(t.prisma)).id;
    const wf = await workflow(org, {}, 'handed');
    const local = executor(t.prisma, 2);
    const rival = executor(other);
    await Promise.all([local.start(), rival.start()]);
    const offer = local.offer();
    expect(offer).toMatchObject({ owner: local.workerId, room: 2 });
    const started = await startRuns(
      t.prisma,
      new RunStore(t.prisma),
      [event(org), event(org), event(org)],
      { runsPerMinute: 100, chatRunsPerMinute: 100 },
      undefined,
      offer,
    );
    // room for two: those are claimed for it (attempts 1, its worker id); the third is left to the rounds
    expect([started.handed.length, started.due]).toEqual([2, 1]);
    const rows = await t.prisma.automationStep.findMany({ where: { step_id: { in: started.handed.map((s) => s.step_id) } } });
    expect(rows.every((r) => r.claimed_by === local.workerId && r.attempts === 1 && r.started_at === null)).toBe(true);
    expect((await rival.round()).ran).toBeLessThanOrEqual(1); // at most the unclaimed one
    const still = await t.prisma.automationStep.findMany({ where: { step_id: { in: started.handed.map((s) => s.step_id) } } });
    expect(still.map((r) => [r.claimed_by, r.attempts])).toEqual([
      [local.workerId, 1],
      [local.workerId, 1],
    ]);
    local.take(started.handed);
    const done = () =>
      t.prisma.automationStep.count({ where: { step_id: { in: started.handed.map((s) => s.step_id) }, status: 'completed' } });
    const until = Date.now() + 5_000;
    while ((await done()) < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const after = await t.prisma.automationStep.findMany({ where: { step_id: { in: started.handed.map((s) => s.step_id) } } });
    expect(
      after.map((s) => [s.status, s.attempts, s.started_at !== null && s.finished_at !== null && s.started_at <= s.finished_at]),
    ).toEqual([
      ['completed', 1, true],
      ['completed', 1, true],
    ]);
    const allDone = Date.now() + 5_000;
    while ((await statuses(wf.id)).some((s) => s !== 'completed') && Date.now() < allDone) await new Promise((r) => setTimeout(r, 20));
    expect(await statuses(wf.id)).toEqual(['completed', 'completed', 'completed']);
    expect(sends.filter((s) => s.message === 'handed')).toHaveLength(3);
    expect(new Set(sends.filter((s) => s.message === 'handed').map((s) => s.key)).size).toBe(3);
  }, 20_000);

  it('steps handed to an executor that dies before running them are taken over by another within a second, and run once', async () => {
    const org = (await createOrg(t.prisma)).id;
    const wf = await workflow(org, {}, 'orphaned');
    const doomed = new WorkerLiveness(t.db.url, logger);
    await doomed.start();
    const owner = doomed.id;
    if (!owner) throw new Error('no liveness lock');
    const started = await startRuns(
      t.prisma,
      new RunStore(t.prisma),
      [event(org), event(org)],
      { runsPerMinute: 100, chatRunsPerMinute: 100 },
      undefined,
      { owner, room: 10, leaseMs: 60_000 },
    );
    expect(started.handed).toHaveLength(2);
    const survivor = executor(other);
    await survivor.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(sends.filter((s) => s.message === 'orphaned')).toHaveLength(0); // its owner lives: not taken
    const killedAt = Date.now();
    await doomed.stop(); // as a killed process: its session, and the liveness lock, go
    while ((await statuses(wf.id)).some((s) => s !== 'completed') && Date.now() - killedAt < 5_000)
      await new Promise((r) => setTimeout(r, 20));
    expect(Date.now() - killedAt).toBeLessThan(1_000);
    expect(await statuses(wf.id)).toEqual(['completed', 'completed']);
    expect(sends.filter((s) => s.message === 'orphaned')).toHaveLength(2);
  }, 20_000);
});
