import { spawn } from 'node:child_process';
import { Errors, ServiceError, type WorkflowActionInput } from '@mapi/contracts';
import { createPrismaClient, type Prisma, type PrismaClient } from '@mapi/db';
import { ensureStreams, eventSubject, publishDurable, type DomainEvent } from '@mapi/events';
import { connectNats } from '@mapi/platform';
import { createOrg, newUuid, randomSuffix, testEnv, useTestDatabase } from '@mapi/testing';
import type { NatsConnection } from 'nats';
import pino from 'pino';
import type { RpcCaller } from './engine/actions/action-context';
import { EventIntake, startRuns } from './engine/event-intake';
import { RunStore } from './engine/run-store';
import { EnabledWorkflows } from './engine/enabled-workflows';
import { StepExecutor, type StepExecutorOptions } from './engine/step-executor';
import { runStep } from './engine/step-runner';
import { WORKER_LOCK_PREFIX, WorkerLiveness } from './engine/worker-liveness';
import { WorkflowRepository } from './repositories/workflow-repository';

/**
 * The engine against Postgres (and JetStream for the intake): an event delivered again starts no
 * second run; two executors racing over the same due steps run each action once; a step whose
 * executor died after sending is run again by another with the same idempotency key, so a queue
 * that keys its jobs (as the real one does) holds one message; an executor that dies (its session
 * closed, or its process SIGKILLed) has its claims taken over within a second, not after the lease;
 * the intake's workflow cache follows every change; delays are due later and survive a new executor;
 * limits record runs as skipped; failures end runs as failed, passing ones retry.
 */
describe('automation engine (integration)', () => {
  const logger = pino({ level: 'silent' });
  const executors: StepExecutor[] = [];
  let other: PrismaClient;
  let nc: NatsConnection | undefined;
  let intake: EventIntake | undefined;
  afterAll(async () => {
    await intake?.stop();
    for (const e of executors) await e.stop();
    await nc?.drain();
    await other?.$disconnect();
  });
  const t = useTestDatabase('automation_engine', { poolSize: 6 });
  let org: string;

  /** A queue that keys jobs by Idempotency-Key, as the queue service does; other RPCs scripted per test. */
  class FakeServices implements RpcCaller {
    readonly sends: { key: string; chat_id: string; message: string }[] = [];
    readonly jobs = new Map<string, string>();
    fail: ((subject: string) => Error | null) | null = null;
    readonly chatLabels = new Map<string, Record<string, boolean>>();
    call = (async (contract: { subject: string }, payload: any) => {
      const failure = this.fail?.(contract.subject);
      if (failure) throw failure;
      if (contract.subject === 'chats.v1.chats.get')
        return { chat_id: payload.params.chat_id, label_ids: this.chatLabels.get(payload.params.chat_id) ?? {} };
      if (contract.subject === 'inbox.v1.labels.list') return { from: 1, to: 1, count: 1, labels: [{ label_id: 'label-1', name: 'vip' }] };
      if (contract.subject !== 'queue.v1.send') throw new Error(`unexpected RPC ${contract.subject}`);
      const key = payload.headers['idempotency-key'];
      this.sends.push({ key, chat_id: payload.body.chat_id, message: payload.body.message });
      if (!this.jobs.has(key)) this.jobs.set(key, newUuid());
      return { queue_id: this.jobs.get(key), queue_position: '1', unique_id: `u-${key.slice(-8)}` };
    }) as RpcCaller['call'];
  }

  const send = (id: string, message: string, next: string | null = null): WorkflowActionInput => ({
    id,
    action_metadata: { type: 'send_message_to_chat', metadata: { message, chat_id: 'trigger_chat' } },
    next,
  });
  const workflow = async (actions: WorkflowActionInput[], meta: Record<string, unknown> = {}, orgId = org) =>
    new WorkflowRepository(t.prisma).create(
      orgId,
      newUuid(),
      {
        name: `wf ${randomSuffix(2)}`,
        trigger: 'message.created',
        is_active: true,
        trigger_metadata: {
          org_phones: [],
          allow_internal_messages: false,
          first_action_id: actions[0]?.id ?? null,
          ...meta,
        } as Prisma.InputJsonValue,
        actions: actions as unknown as Prisma.InputJsonValue,
      },
      'test',
    );
  const message = (over: Record<string, unknown> = {}, orgId = org): DomainEvent => ({
    event_id: newUuid(),
    event_type: 'message.created',
    org_id: orgId,
    phone_id: 'phone-1',
    created_at: new Date().toISOString(),
    data: {
      message_id: `m-${randomSuffix(3)}`,
      chat_id: `${Math.floor(Math.random() * 1e12)}@c.us`,
      org_phone: '14155550100',
      sender_phone: '14155550123',
      from_me: false,
      body: 'hello',
      ...over,
    } as never,
  });
  const limits = { runsPerMinute: 10_000, chatRunsPerMinute: 100 };
  const runsOf = (workflowId: string) => t.prisma.automationRun.findMany({ where: { workflow_id: workflowId } });
  const executor = (db: PrismaClient, rpc: RpcCaller, leaseMs = 30_000, more: Partial<StepExecutorOptions> = {}) => {
    const e = new StepExecutor(new RunStore(db), rpc, logger, {
      batch: 37,
      leaseMs,
      maxAttempts: 3,
      idlePollMs: 30_000,
      fallbackPollMs: 500,
      ...more,
    });
    executors.push(e);
    return e;
  };
  const drain = async (...es: StepExecutor[]) => {
    for (;;) {
      const rounds = await Promise.all(es.map((e) => e.round()));
      if (rounds.every((r) => r.ran === 0)) return;
    }
  };

  beforeAll(async () => {
    other = createPrismaClient({ url: t.db.url, poolSize: 3 });
    org = (await createOrg(t.prisma)).id;
  });
  // each test runs only its own workflows and steps: what an earlier one left is set aside
  beforeEach(async () => {
    await t.prisma.$executeRaw`UPDATE automation_steps SET status = 'skipped' WHERE status = 'pending'`;
    await t.prisma.$executeRaw`UPDATE automation_workflows SET is_active = false`;
  });

  it('an event delivered again, even by two intakes at once, starts one run with one first step', async () => {
    const wf = await workflow([send('reply', 'hi')]);
    const e = message();
    await Promise.all([startRuns(t.prisma, new RunStore(t.prisma), [e], limits), startRuns(other, new RunStore(other), [e], limits)]);
    await startRuns(t.prisma, new RunStore(t.prisma), [e, e], limits);
    const runs = await runsOf(wf.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'running', event_id: e.event_id, chat_id: (e.data as { chat_id: string }).chat_id });
    expect(await t.prisma.automationStep.count({ where: { run_id: runs[0].run_id } })).toBe(1);
  });

  it('the durable consumer starts runs from the events stream, once per event however often it is published', async () => {
    const ns = `${testEnv.namespace()}-auto-${randomSuffix(3)}`;
    nc = await connectNats(testEnv.natsUrl(), 'automation-int');
    await ensureStreams(nc, ns);
    const wf = await workflow([send('reply', 'hi')]);
    const e = message();
    let due = 0;
    intake = new EventIntake(nc, ns, t.prisma, new RunStore(t.prisma), limits, () => due++, logger, 5_000);
    await intake.start();
    const js = nc.jetstream();
    // the same event under three message ids: JetStream's dedupe does not catch these, the unique key does
    for (let i = 0; i < 3; i++) await publishDurable(js, eventSubject(ns, e.event_type), e, `${e.event_id}-${i}`);
    const until = Date.now() + 10_000;
    while ((await runsOf(wf.id)).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    expect(await runsOf(wf.id)).toHaveLength(1);
    expect(due).toBeGreaterThanOrEqual(1);
  }, 20_000);

  it('two executors racing over the same due steps run each action once, and every run completes with its event', async () => {
    const wf = await workflow([send('first', 'one', 'second'), send('second', 'two')]);
    const events = Array.from({ length: 120 }, () => message());
    await startRuns(t.prisma, new RunStore(t.prisma), events, limits);
    const services = new FakeServices();
    // a short lease: should a record fail (a loaded machine), the step is claimed again and the test still ends
    const [x, y] = [executor(t.prisma, services, 3_000), executor(other, services, 3_000)];
    for (let until = Date.now() + 25_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
      await drain(x, y);
      if (!(await t.prisma.automationStep.count({ where: { status: 'pending' } }))) break;
    }
    // every action of every run ran, under its own key; no step was ever held by both executors at once:
    // each claim sent once (sends = claims), and a step claimed twice only after a lease ended
    expect(new Set(services.sends.map((s) => s.key)).size).toBe(240);
    const steps = await t.prisma.automationStep.findMany({ where: { run_id: { in: (await runsOf(wf.id)).map((r) => r.run_id) } } });
    expect(steps).toHaveLength(240);
    expect(services.sends.length).toBe(steps.reduce((n, s) => n + s.attempts, 0));
    const runs = await runsOf(wf.id);
    expect(runs.map((r) => r.status)).toEqual(Array(120).fill('completed'));
    const done = await t.prisma.outboxEvent.findMany({ where: { type: 'workflow.run.completed' } });
    const mine = done.filter((o) => (o.payload as { workflow_id: string }).workflow_id === wf.id);
    expect(mine).toHaveLength(120);
    expect((mine[0].payload as { steps: { action_id: string; status: string }[] }).steps.map((s) => [s.action_id, s.status])).toEqual([
      ['first', 'completed'],
      ['second', 'completed'],
    ]);
  }, 30_000);

  it('a step whose executor died after sending is run again once its lease ends, with the same key: one message', async () => {
    const wf = await workflow([send('reply', 'once only')]);
    const e = message();
    await startRuns(t.prisma, new RunStore(t.prisma), [e], limits);
    const services = new FakeServices();
    // the first executor claims the step and sends, then dies before recording anything
    const abandoned = await new RunStore(t.prisma).claim(10, 400);
    const step = abandoned.steps.find((s) => s.action_id === 'reply');
    if (!step) throw new Error('the step was not claimed');
    const run = (await runsOf(wf.id))[0];
    await runStep(services, step, run, [], 3);
    // while the lease holds, nobody else takes it
    expect((await executor(other, services).round()).ran).toBe(0);
    await new Promise((r) => setTimeout(r, 450));
    await drain(executor(other, services));
    expect(services.sends.map((s) => s.message)).toEqual(['once only', 'once only']);
    expect(new Set(services.sends.map((s) => s.key)).size).toBe(1);
    expect(services.jobs.size).toBe(1);
    const after = await t.prisma.automationStep.findFirstOrThrow({ where: { run_id: run.run_id, action_id: 'reply' } });
    expect(after).toMatchObject({ status: 'completed', attempts: 2 });
    expect((await runsOf(wf.id))[0].status).toBe('completed');
  }, 15_000);

  it("a killed executor's claims are taken over by another within well under a second (not after the lease); what it recorded is not run again", async () => {
    const wf = await workflow([send('reply', 'taken over')]);
    await startRuns(t.prisma, new RunStore(t.prisma), [message(), message(), message()], limits);
    const services = new FakeServices();
    // the doomed executor: its liveness lock on a session of its own, claims tagged with its worker id, a 60 s lease
    const doomed = new WorkerLiveness(t.db.url, logger);
    await doomed.start();
    expect(doomed.id).toMatch(/^[0-9a-f-]{36}$/);
    const store = new RunStore(t.prisma);
    const { steps } = await store.claim(10, 60_000, doomed.id);
    expect(steps).toHaveLength(3);
    const runs = await store.runs(steps);
    const runOf = (s: (typeof steps)[number]) => {
      const read = runs.get(`${s.org_id}|${s.run_id}`);
      if (!read) throw new Error(`run ${s.run_id} not read`);
      return read.run;
    };
    const outcomes = await Promise.all(steps.map((s) => runStep(services, s, runOf(s), [], 3)));
    // it sent all three and recorded the first; then it dies before recording the other two
    expect(await store.record(steps[0], outcomes[0])).toBe(true);
    const survivor = executor(other, services, 60_000, { livenessUrl: t.db.url, ownerCheckMs: 100 });
    // while its owner lives, nobody takes a step; the survivor looks again soon rather than at the lease's end
    const look = await survivor.round();
    expect(look.ran).toBe(0);
    expect(look.nextDueInMs).toBeLessThanOrEqual(100);
    await survivor.start();
    await new Promise((r) => setTimeout(r, 400));
    expect(services.sends).toHaveLength(3);
    const killedAt = Date.now();
    await doomed.stop(); // its session ends, as a killed process's does: the liveness lock goes with it
    const done = () => t.prisma.automationStep.count({ where: { step_id: { in: steps.map((s) => s.step_id) }, status: 'completed' } });
    while ((await done()) < 3 && Date.now() - killedAt < 5_000) await new Promise((r) => setTimeout(r, 20));
    const tookOverMs = Date.now() - killedAt;
    await survivor.stop();
    expect(await done()).toBe(3);
    expect(tookOverMs).toBeLessThan(1_000);
    // the two unrecorded steps ran again with their keys (one job each); the recorded one did not
    expect(services.sends).toHaveLength(5);
    expect(services.jobs.size).toBe(3);
    const after = await t.prisma.automationStep.findMany({ where: { step_id: { in: steps.map((s) => s.step_id) } } });
    expect(after.map((s) => s.attempts).sort()).toEqual([1, 2, 2]);
    expect(after.every((s) => s.claimed_by === null && s.claimed_until === null)).toBe(true);
    expect((await runsOf(wf.id)).map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
  }, 15_000);

  it('a SIGKILLed process holding claims: its liveness lock goes with it, and a running executor takes its steps within a second', async () => {
    const wf = await workflow([send('reply', 'after a kill')]);
    await startRuns(t.prisma, new RunStore(t.prisma), [message(), message()], limits);
    // another process holds a worker id's liveness lock, as an executor does (WorkerLiveness), and is killed
    const id = newUuid();
    const child = spawn(
      process.execPath,
      [
        '-e',
        `
      const { Client } = require(${JSON.stringify(require.resolve('pg'))});
      const c = new Client({ connectionString: ${JSON.stringify(t.db.url)} });
      c.connect().then(() => c.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [${JSON.stringify(WORKER_LOCK_PREFIX)} + ${JSON.stringify(id)}])).then(() => console.log('locked'));
      setInterval(() => undefined, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
      child.on('exit', () => reject(new Error('the lock holder exited')));
    });
    const { steps } = await new RunStore(t.prisma).claim(10, 60_000, id);
    expect(steps).toHaveLength(2);
    const services = new FakeServices();
    const survivor = executor(other, services, 60_000, { livenessUrl: t.db.url, ownerCheckMs: 100 });
    await survivor.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(services.sends).toHaveLength(0); // its owner lives: not taken
    const killedAt = Date.now();
    child.kill('SIGKILL');
    const done = () => t.prisma.automationStep.count({ where: { step_id: { in: steps.map((s) => s.step_id) }, status: 'completed' } });
    while ((await done()) < 2 && Date.now() - killedAt < 5_000) await new Promise((r) => setTimeout(r, 20));
    const tookOverMs = Date.now() - killedAt;
    await survivor.stop();
    expect(await done()).toBe(2);
    expect(tookOverMs).toBeLessThan(1_000);
    expect(services.sends.map((s) => s.message)).toEqual(['after a kill', 'after a kill']);
    expect((await runsOf(wf.id)).map((r) => r.status)).toEqual(['completed', 'completed']);
  }, 15_000);

  it("the intake's cached workflows follow every change at the next event: created, disabled, enabled again, deleted", async () => {
    const fresh = (await createOrg(t.prisma)).id;
    const cache = new EnabledWorkflows();
    const store = new RunStore(t.prisma);
    const fire = async () => (await startRuns(t.prisma, store, [message({}, fresh)], limits, cache)).due;
    expect(await fire()).toBe(0); // cached: none
    const repo = new WorkflowRepository(t.prisma);
    const wf = await workflow([send('reply', 'x')], {}, fresh);
    expect(await fire()).toBe(1);
    await repo.update(fresh, wf.id, { is_active: false }, 'test');
    expect(await fire()).toBe(0);
    await repo.update(fresh, wf.id, { is_active: true }, 'test');
    expect(await fire()).toBe(1);
    // a change to the definition: the new first action is the one started
    await repo.update(
      fresh,
      wf.id,
      {
        actions: [send('other', 'y')] as unknown as Prisma.InputJsonValue,
        trigger_metadata: { org_phones: [], allow_internal_messages: false, first_action_id: 'other' } as Prisma.InputJsonValue,
      },
      'test',
    );
    expect(await fire()).toBe(1);
    expect(await repo.softDelete(fresh, wf.id, 'test')).toBe(true);
    expect(await fire()).toBe(0);
    const runs = await runsOf(wf.id);
    expect(runs).toHaveLength(3);
    const firsts = await t.prisma.automationStep.findMany({
      where: { run_id: { in: runs.map((r) => r.run_id) } },
      select: { action_id: true },
    });
    expect(firsts.map((s) => s.action_id).sort()).toEqual(['other', 'reply', 'reply']);
  });

  it('a delay makes the next step due later, and a new executor (a restart) runs it then', async () => {
    const wf = await workflow([
      { id: 'wait', action_metadata: { type: 'delay', metadata: { delay: '1 seconds' } }, next: 'reply' },
      send('reply', 'later'),
    ]);
    await startRuns(t.prisma, new RunStore(t.prisma), [message()], limits);
    const services = new FakeServices();
    const first = executor(t.prisma, services);
    const r1 = await first.round();
    expect(r1.ran).toBeGreaterThanOrEqual(1);
    expect(r1.nextDueInMs).toBeGreaterThan(500);
    await drain(first);
    expect(services.sends).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 1_100));
    await drain(executor(other, services));
    expect(services.sends.map((s) => s.message)).toEqual(['later']);
    expect((await runsOf(wf.id))[0].status).toBe('completed');
  }, 15_000);

  it('runs over the per-organization limit, and over the per-chat loop guard, are recorded as skipped; own messages start nothing', async () => {
    const busy = (await createOrg(t.prisma)).id;
    const wf = await workflow([send('reply', 'x')], {}, busy);
    await startRuns(
      t.prisma,
      new RunStore(t.prisma),
      Array.from({ length: 5 }, () => message({}, busy)),
      { runsPerMinute: 3, chatRunsPerMinute: 100 },
    );
    const byStatus = (rows: { status: string; reason: string | null }[]) => rows.map((r) => `${r.status}:${r.reason ?? ''}`).sort();
    expect(byStatus(await runsOf(wf.id))).toEqual(
      [...Array(3).fill('running:'), ...Array(2).fill("skipped:over the organization's limit of 3 runs per minute")].sort(),
    );

    const chatty = await workflow([send('reply', 'x')]);
    const chat = '14155559999@c.us';
    await startRuns(
      t.prisma,
      new RunStore(t.prisma),
      Array.from({ length: 4 }, () => message({ chat_id: chat })),
      { runsPerMinute: 1000, chatRunsPerMinute: 2 },
    );
    expect(byStatus(await runsOf(chatty.id))).toEqual([
      'running:',
      'running:',
      'skipped:loop guard: over 2 runs of this workflow per chat per minute',
      'skipped:loop guard: over 2 runs of this workflow per chat per minute',
    ]);
    expect(
      await t.prisma.automationStep.count({
        where: { run_id: { in: (await runsOf(chatty.id)).filter((r) => r.status === 'skipped').map((r) => r.run_id) } },
      }),
    ).toBe(0);

    const late = await workflow([send('reply', 'x')]);
    await startRuns(
      t.prisma,
      new RunStore(t.prisma),
      [{ ...message(), created_at: new Date(Date.now() - 3_600_000).toISOString() }],
      limits,
    );
    expect(await runsOf(late.id)).toHaveLength(0);
    await new WorkflowRepository(t.prisma).update(org, late.id, { is_active: false }, 'test');

    const own = await workflow([send('reply', 'x')]);
    const internal = await workflow([send('reply', 'x')], { allow_internal_messages: true });
    await startRuns(t.prisma, new RunStore(t.prisma), [message({ from_me: true })], limits);
    expect(await runsOf(own.id)).toHaveLength(0);
    expect(await runsOf(internal.id)).toHaveLength(1);
  });

  it('a 4xx fails the run (workflow.run.failed); a 503 is retried and then succeeds', async () => {
    const failing = await workflow([send('reply', 'x', 'after'), send('after', 'never')]);
    await startRuns(t.prisma, new RunStore(t.prisma), [message()], limits);
    const services = new FakeServices();
    services.fail = () => Errors.notFound('Chat not found');
    await drain(executor(t.prisma, services));
    const [run] = await runsOf(failing.id);
    expect(run).toMatchObject({ status: 'failed', reason: 'Chat not found' });
    const failed = await t.prisma.outboxEvent.findMany({ where: { type: 'workflow.run.failed' } });
    expect(failed.map((o) => (o.payload as { run_id: string }).run_id)).toContain(run.run_id);
    expect(await t.prisma.automationStep.count({ where: { run_id: run.run_id } })).toBe(1);

    await new WorkflowRepository(t.prisma).update(org, failing.id, { is_active: false }, 'test');
    const flaky = await workflow([send('reply', 'x')]);
    await startRuns(t.prisma, new RunStore(t.prisma), [message()], limits);
    let failures = 1;
    services.fail = () => (failures-- > 0 ? new ServiceError(Errors.unavailable('queue down').code, 503, 'queue down') : null);
    const e = executor(t.prisma, services);
    await drain(e);
    const pending = await t.prisma.automationStep.findFirstOrThrow({ where: { run_id: (await runsOf(flaky.id))[0].run_id } });
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, error: 'queue down' });
    await new Promise((r) => setTimeout(r, 1_100));
    await drain(e);
    expect((await runsOf(flaky.id))[0].status).toBe('completed');
  }, 15_000);

  it("a condition on a message's chat labels reads the chat (chats service) and the label names (inbox) at that step", async () => {
    const wf = await workflow([
      {
        id: 'vip',
        action_metadata: {
          type: 'validate_action',
          metadata: {
            operator: 'AND',
            conditions: [{ id: 'c', variable_name: 'chat.labels', variable_type: 'array', condition: 'IS_ANY_OF', value: ['VIP'] }],
          },
        },
        next: 'reply',
      },
      send('reply', 'welcome back'),
    ]);
    const [vip, plain] = [message(), message()];
    const services = new FakeServices();
    services.chatLabels.set((vip.data as { chat_id: string }).chat_id, { 'label-1': true });
    await startRuns(t.prisma, new RunStore(t.prisma), [vip, plain], limits);
    await drain(executor(t.prisma, services));
    expect(services.sends.map((s) => s.chat_id)).toEqual([(vip.data as { chat_id: string }).chat_id]);
    expect((await runsOf(wf.id)).map((r) => r.status)).toEqual(['completed', 'completed']);
  });

  it('deleting a workflow skips the steps of its runs not yet done', async () => {
    const wf = await workflow([
      { id: 'wait', action_metadata: { type: 'delay', metadata: { delay: '1 hours' } }, next: 'reply' },
      send('reply', 'x'),
    ]);
    await startRuns(t.prisma, new RunStore(t.prisma), [message()], limits);
    const services = new FakeServices();
    await drain(executor(t.prisma, services));
    expect(await new WorkflowRepository(t.prisma).softDelete(org, wf.id, 'test')).toBe(true);
    const [run] = await runsOf(wf.id);
    expect(run.status).toBe('skipped');
    const steps = await t.prisma.automationStep.findMany({ where: { run_id: run.run_id }, orderBy: { created_at: 'asc' } });
    expect(steps.map((s) => [s.action_id, s.status])).toEqual([
      ['wait', 'completed'],
      ['reply', 'skipped'],
    ]);
    expect(await new WorkflowRepository(t.prisma).softDelete(org, wf.id, 'test')).toBe(false);
  });
});
