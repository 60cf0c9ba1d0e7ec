import { Errors, ServiceError } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { createOrg, useTestDatabase } from '@mapi/testing';
import { EnabledWorkflows } from './engine/enabled-workflows';
import { startRuns } from './engine/event-intake';
import { RunStore } from './engine/run-store';
import { engineHarness, FakeServices, limits, send } from './engine/testing/engine-harness';
import { WorkflowRepository } from './repositories/workflow-repository';

/**
 * The engine's runs against Postgres: the intake's workflow cache follows every change; delays are
 * due later and survive a new executor; limits record runs as skipped; failures end runs as failed,
 * passing ones retry; conditions read the chat at their step; a deleted workflow's steps are skipped.
 */
describe('automation engine: runs (integration)', () => {
  const h = engineHarness(useTestDatabase('automation_engine_runs', { poolSize: 6 }), createOrg);
  const { t, workflow, message, runsOf, executor, drain } = h;
  let org: string;
  let other: PrismaClient;
  beforeAll(() => {
    org = h.org;
    other = h.other;
  });

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
