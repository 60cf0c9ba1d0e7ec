import { createOrg, randomSuffix, useTestDatabase } from '@mapi/testing';
import { applyFacts } from './ingest/apply-facts';
import type { MessageFact } from './ingest/message-facts';
import { MetricsRepository } from './repositories/metrics-repository';
import { factsOf } from './testing/message-fact';
import { near } from './testing/near';

/**
 * GET /analytics/messages reads its series and its totals in one snapshot: a batch of the intake
 * committing between the two reads shows in neither (before, the totals could lack responses the
 * series already counted).
 */
describe('analytics reads (one snapshot)', () => {
  const t = useTestDatabase('analytics_snapshot_int', { poolSize: 4 });
  const T0 = Date.parse('2026-11-02T08:00:00Z');
  const from = new Date('2026-11-02T00:00:00Z');
  const to = new Date('2026-11-03T00:00:00Z');

  const conversation = (org_id: string): MessageFact[] => {
    const chat_id = `1555${randomSuffix(3)}@c.us`;
    const fact = factsOf(org_id, 'phone-snapshot00001', T0);
    return [fact(chat_id, 'A', 0, false), fact(chat_id, 'B', 3, true)];
  };
  const commitBatch = (facts: MessageFact[]) => t.prisma.$transaction((tx) => applyFacts(tx, facts));
  const incoming = (rows: { incoming: number }[]) => rows.reduce((n, r) => n + r.incoming, 0);

  it('a batch committed between the totals and the series shows in neither', async () => {
    const org = await createOrg(t.prisma);
    const scope = { orgId: org.id, phones: null };
    const repo = new MetricsRepository(t.prisma);
    const [totals, series] = await repo.snapshot(async (m) => {
      const before = await m.totals(scope, from, to);
      await commitBatch(conversation(org.id));
      return [before, await m.series(scope, from, to, 'UTC', 'day')] as const;
    });
    expect(totals).toMatchObject({ active_chats: 0, first: { count: 0 } });
    expect(incoming(series)).toBe(0);
    expect(series.map((r) => r.first_responses)).toEqual([0]); // the histograms too
    // after the snapshot, both see the batch (a median from the histograms: within 2 %)
    expect(await repo.totals(scope, from, to)).toMatchObject({ active_chats: 1, first: { median: near(180_000), count: 1 } });
    const after = await repo.series(scope, from, to, 'UTC', 'day');
    expect(incoming(after)).toBe(1);
    expect(after.map((r) => [r.first_responses, r.first_response_median_ms])).toEqual([[1, near(180_000)]]);
  });

  it('without the snapshot the same two reads disagree (what the snapshot prevents)', async () => {
    const org = await createOrg(t.prisma);
    const scope = { orgId: org.id, phones: null };
    const repo = new MetricsRepository(t.prisma);
    const before = await repo.totals(scope, from, to);
    await commitBatch(conversation(org.id));
    const series = await repo.series(scope, from, to, 'UTC', 'day');
    expect(before.active_chats).toBe(0);
    expect(incoming(series)).toBe(1);
  });
});
