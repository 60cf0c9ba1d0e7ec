import { createOrg, newUuid, useTestDatabase } from '@mapi/testing';
import pino from 'pino';
import { RunRetention } from './run-retention';

/** Run retention against Postgres: old finished runs go with their steps, in batches; running and recent runs stay. */
describe('RunRetention (integration)', () => {
  const t = useTestDatabase('automation_retention', { poolSize: 4 });
  const logger = pino({ level: 'silent' });
  const DAY = 86_400_000;

  const run = async (org: string, status: string, finishedAgoMs: number | null) => {
    const run_id = newUuid();
    const started = new Date(Date.now() - (finishedAgoMs ?? 0) - 1_000);
    await t.prisma.automationRun.create({
      data: {
        run_id,
        org_id: org,
        workflow_id: newUuid(),
        event_id: newUuid(),
        event_type: 'message.created',
        event: {},
        definition: {},
        status,
        started_at: started,
        finished_at: finishedAgoMs === null ? null : new Date(Date.now() - finishedAgoMs),
      },
    });
    await t.prisma.automationStep.createMany({
      data: ['a', 'b'].map((action_id) => ({
        step_id: newUuid(),
        run_id,
        org_id: org,
        action_id,
        action_type: 'delay',
        status: status === 'running' && action_id === 'b' ? 'pending' : 'completed',
      })),
    });
    return run_id;
  };

  it('deletes finished runs older than the retention with their steps, in batches; keeps running and recent ones', async () => {
    const [a, b] = [(await createOrg(t.prisma)).id, (await createOrg(t.prisma)).id];
    const old: string[] = [];
    for (let i = 0; i < 7; i++) old.push(await run(i % 2 ? a : b, ['completed', 'failed', 'skipped'][i % 3], 31 * DAY + i * 1_000));
    const kept = [await run(a, 'completed', 29 * DAY), await run(b, 'running', null), await run(a, 'failed', 1_000)];
    // a run that started long ago and still runs (a long delay) is never swept
    const longRunning = newUuid();
    await t.prisma.automationRun.create({
      data: {
        run_id: longRunning,
        org_id: a,
        workflow_id: newUuid(),
        event_id: newUuid(),
        event_type: 'x',
        event: {},
        definition: {},
        status: 'running',
        started_at: new Date(Date.now() - 60 * DAY),
      },
    });
    kept.push(longRunning);

    const sweeper = new RunRetention(t.prisma, logger, { retentionMs: 30 * DAY, intervalMs: 3_600_000, batchSize: 3 });
    expect(await sweeper.sweep()).toBe(7);
    const left = (await t.prisma.automationRun.findMany({ select: { run_id: true } })).map((r) => r.run_id);
    expect(left.sort()).toEqual([...kept].sort());
    expect(await t.prisma.automationStep.count({ where: { run_id: { in: old } } })).toBe(0);
    expect(await t.prisma.automationStep.count({ where: { run_id: { in: kept } } })).toBe(6);
    expect(await sweeper.sweep()).toBe(0);
  });

  it('two sweepers at once delete each run once and both finish', async () => {
    const org = (await createOrg(t.prisma)).id;
    for (let i = 0; i < 40; i++) await run(org, 'completed', 40 * DAY);
    const options = { retentionMs: 30 * DAY, intervalMs: 3_600_000, batchSize: 5 };
    const counts = await Promise.all([
      new RunRetention(t.prisma, logger, options).sweep(),
      new RunRetention(t.prisma, logger, options).sweep(),
    ]);
    expect(counts[0] + counts[1]).toBe(40);
    expect(await t.prisma.automationRun.count({ where: { org_id: org } })).toBe(0);
  });
});
