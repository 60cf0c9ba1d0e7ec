import { createOrg, randomSuffix, useTestDatabase } from '@mapi/testing';
import pino from 'pino';
import { SlaPolicyRepository } from '../sla/sla-policy-repository';
import { AnalyticsRetention } from './analytics-retention';
import { loadRetentionConfig } from './retention-config';
import { retentionFromEnv } from './retention-from-env';

/**
 * The retention sweep against Postgres: ended flag jobs and closed SLA waits older than the retention go, in
 * batches; pending jobs, open waits (pending or breached and not answered) and recent rows stay, however old
 * the rest of them is; sweepers at once delete each row once; a row another transaction holds is skipped, not
 * waited for, and taken by the next sweep.
 */
describe('AnalyticsRetention (integration)', () => {
  const t = useTestDatabase('analytics_retention', { poolSize: 6 });
  const logger = pino({ level: 'silent' });
  const DAY = 86_400_000;
  const ago = (ms: number) => new Date(Date.now() - ms);
  const options = { retentionMs: 30 * DAY, intervalMs: 3_600_000, batchSize: 3 };

  const job = async (org: string, state: string, endedAgo: number | null, createdAgo = 40 * DAY) =>
    (
      await t.prisma.analyticsFlagJob.create({
        data: {
          org_id: org,
          action: 'flag',
          phone_id: 'p1',
          chat_id: `${randomSuffix(6)}@c.us`,
          message_id: `m-${randomSuffix(8)}`,
          message_at: ago(createdAgo),
          due_at: ago(createdAgo),
          state,
          created_at: ago(createdAgo),
          done_at: endedAgo === null ? null : ago(endedAgo),
        },
      })
    ).job_id;
  const wait = async (org: string, policy: string, state: string, answeredAgo: number | null) =>
    (
      await t.prisma.analyticsSlaTimer.create({
        data: {
          org_id: org,
          policy_id: policy,
          phone_id: 'p1',
          chat_id: `${randomSuffix(6)}@c.us`,
          message_id: `m-${randomSuffix(8)}`,
          started_at: ago(60 * DAY),
          due_at: ago(60 * DAY - 60_000),
          state,
          fired_at: state === 'breached' ? ago(60 * DAY - 61_000) : null,
          answered_at: answeredAgo === null ? null : ago(answeredAgo),
          created_at: ago(60 * DAY),
        },
      })
    ).timer_id;
  const policyOf = async (org: string) =>
    (await new SlaPolicyRepository(t.prisma).create(org, { name: 'p', kind: 'first_response', minutes: 5, enabled: true })).policy_id;
  const jobIds = async (orgs: string[]) =>
    (await t.prisma.analyticsFlagJob.findMany({ where: { org_id: { in: orgs } }, select: { job_id: true } })).map((r) => r.job_id).sort();
  const waitIds = async (orgs: string[]) =>
    (await t.prisma.analyticsSlaTimer.findMany({ where: { org_id: { in: orgs } }, select: { timer_id: true } }))
      .map((r) => r.timer_id)
      .sort();

  it('deletes ended flag jobs and closed SLA waits past the retention, in batches; keeps pending, open and recent ones', async () => {
    const [a, b] = [(await createOrg(t.prisma)).id, (await createOrg(t.prisma)).id];
    const [pa, pb] = [await policyOf(a), await policyOf(b)];
    for (let i = 0; i < 7; i++) await job(i % 2 ? a : b, ['done', 'failed', 'cancelled'][i % 3], 31 * DAY + i * 1_000);
    for (let i = 0; i < 5; i++) await wait(i % 2 ? a : b, i % 2 ? pa : pb, i % 2 ? 'cancelled' : 'breached', 31 * DAY + i * 1_000);
    const keptJobs = [
      await job(a, 'done', 29 * DAY),
      await job(b, 'failed', 1_000),
      await job(a, 'pending', null, 90 * DAY), // armed long ago, never ended (a waiting rule far away): kept
      await job(b, 'pending', null), // leased or retried: pending is never swept
    ];
    const keptWaits = [
      await wait(a, pa, 'cancelled', 29 * DAY),
      await wait(b, pb, 'pending', null),
      await wait(a, pa, 'breached', null), // breaching now (no reply yet): kept whatever its age
    ];
    const sweeper = new AnalyticsRetention(t.prisma, logger, options);
    expect(await sweeper.sweep()).toEqual({ flag_jobs: 7, sla_waits: 5 });
    expect(await jobIds([a, b])).toEqual([...keptJobs].sort());
    expect(await waitIds([a, b])).toEqual([...keptWaits].sort());
    expect(await sweeper.sweep()).toEqual({ flag_jobs: 0, sla_waits: 0 });
    // the open breach stays one (it still blocks a second wait of its policy on that chat)
    expect(await t.prisma.analyticsSlaTimer.count({ where: { org_id: a, state: 'breached', answered_at: null } })).toBe(1);
  });

  it('two sweepers at once delete each row once and both finish', async () => {
    const org = (await createOrg(t.prisma)).id;
    const policy = await policyOf(org);
    for (let i = 0; i < 40; i++) await job(org, 'done', 40 * DAY);
    for (let i = 0; i < 20; i++) await wait(org, policy, 'cancelled', 40 * DAY);
    const counts = await Promise.all([
      new AnalyticsRetention(t.prisma, logger, { ...options, batchSize: 5 }).sweep(),
      new AnalyticsRetention(t.prisma, logger, { ...options, batchSize: 5 }).sweep(),
    ]);
    expect(counts[0].flag_jobs + counts[1].flag_jobs).toBe(40);
    expect(counts[0].sla_waits + counts[1].sla_waits).toBe(20);
    expect(await jobIds([org])).toEqual([]);
    expect(await waitIds([org])).toEqual([]);
  });

  it('skips a row another transaction holds (no wait), and the next sweep takes it', async () => {
    const org = (await createOrg(t.prisma)).id;
    const policy = await policyOf(org);
    const [held, free] = [await job(org, 'done', 40 * DAY), await job(org, 'failed', 40 * DAY)];
    const heldWait = await wait(org, policy, 'breached', 40 * DAY);
    const sweeper = new AnalyticsRetention(t.prisma, logger, options);
    const during = await t.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM analytics_flag_jobs WHERE job_id = ${held}::uuid FOR UPDATE`;
      await tx.$queryRaw`SELECT 1 FROM analytics_sla_timers WHERE timer_id = ${heldWait}::uuid FOR UPDATE`;
      const started = Date.now();
      const n = await sweeper.sweep();
      return { n, ms: Date.now() - started };
    });
    expect(during.n).toEqual({ flag_jobs: 1, sla_waits: 0 });
    expect(during.ms).toBeLessThan(4_000);
    expect(await jobIds([org])).toEqual([held]);
    expect(free).not.toBe(held);
    expect(await sweeper.sweep()).toEqual({ flag_jobs: 1, sla_waits: 1 });
    expect(await jobIds([org])).toEqual([]);
  });

  it('reads ANALYTICS_RETENTION_DAYS (30 by default, 1–3650) and never sweeps sooner than the late cut-offs', () => {
    expect(loadRetentionConfig({}).ANALYTICS_RETENTION_DAYS).toBe(30);
    expect(loadRetentionConfig({ ANALYTICS_RETENTION_DAYS: '' }).ANALYTICS_RETENTION_DAYS).toBe(30);
    expect(loadRetentionConfig({ ANALYTICS_RETENTION_DAYS: '7' }).ANALYTICS_RETENTION_DAYS).toBe(7);
    expect(() => loadRetentionConfig({ ANALYTICS_RETENTION_DAYS: '0' })).toThrow(/ANALYTICS_RETENTION_DAYS/);
    const saved = { ...process.env };
    try {
      Object.assign(process.env, {
        ANALYTICS_RETENTION_DAYS: '1',
        FLAG_LATE_CUTOFF_MS: String(3 * DAY),
        SLA_LATE_CUTOFF_MS: String(2 * DAY),
      });
      expect(retentionFromEnv(t.prisma, logger)['options'].retentionMs).toBe(3 * DAY);
      Object.assign(process.env, { ANALYTICS_RETENTION_DAYS: '30' });
      expect(retentionFromEnv(t.prisma, logger)['options'].retentionMs).toBe(30 * DAY);
    } finally {
      for (const k of ['ANALYTICS_RETENTION_DAYS', 'FLAG_LATE_CUTOFF_MS', 'SLA_LATE_CUTOFF_MS']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });
});
