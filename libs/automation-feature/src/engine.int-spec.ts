import { spawn } from 'node:child_process';
import type { PrismaClient } from '@mapi/db';
import { ensureStreams, eventSubject, publishDurable } from '@mapi/events';
import { connectNats } from '@mapi/platform';
import { createOrg, newUuid, randomSuffix, testEnv, useTestDatabase } from '@mapi/testing';
import type { NatsConnection } from 'nats';
import { EventIntake, startRuns } from './engine/event-intake';
import { RunStore } from './engine/run-store';
import { runStep } from './engine/step-runner';
import { engineHarness, FakeServices, limits, send } from './engine/testing/engine-harness';
import { WORKER_LOCK_PREFIX, WorkerLiveness } from './engine/worker-liveness';

/**
 * The engine against Postgres (and JetStream for the intake): an event delivered again starts no
 * second run; two executors racing over the same due steps run each action once; a step whose
 * executor died after sending is run again by another with the same idempotency key, so a queue
 * that keys its jobs (as the real one does) holds one message; an executor that dies (its session
 * closed, or its process SIGKILLed) has its claims taken over within a second, not after the lease.
 * The rest of the engine's runs: engine-runs.int-spec.ts.
 */
describe('automation engine: intake and executors (integration)', () => {
  const h = engineHarness(useTestDatabase('automation_engine', { poolSize: 6 }), createOrg);
  const { t, logger, workflow, message, runsOf, executor, drain } = h;
  let other: PrismaClient;
  beforeAll(() => {
    other = h.other;
  });
  let nc: NatsConnection | undefined;
  let intake: EventIntake | undefined;
  h.onEnd(async () => {
    await intake?.stop();
    await nc?.drain();
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
});
