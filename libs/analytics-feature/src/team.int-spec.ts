import { TeamMetricsRpc } from '@mapi/contracts';
import { createOrg, messageRow, useTestDatabase } from '@mapi/testing';
import { applyFacts } from './ingest/apply-facts';
import { rebuildPeriod } from './rebuild/rebuild-period';
import { MetricsRepository } from './repositories/metrics-repository';
import { TeamMetricsRepository, TicketMetricsRepository } from './repositories/ticket-metrics-repository';
import { TeamMetrics } from './usecases/team-metrics/team-metrics.usecase';
import { PHONE, TEAM, TEAM_C1, apply, ctxOf, everyone, memberCtx, messages, onlyC1, script, storeTickets } from './testing/tickets-fixture';
import { noTokenNames } from './testing/chats-stubs';

/**
 * Team figures against Postgres: per member the messages sent, first responses and tickets of the
 * ticket script and its chats' messages; another organization's never show; a member sees the chats
 * within reach; a rebuild from the stored tickets and messages gives the live figures back.
 */
describe('analytics team (integration)', () => {
  const t = useTestDatabase('analytics_team_int', { poolSize: 4 });

  const team = (org: string, query: Record<string, string> = {}, ctx = ctxOf(org), reach = everyone) =>
    new TeamMetrics(
      new TeamMetricsRepository(t.prisma),
      new MetricsRepository(t.prisma),
      new TicketMetricsRepository(t.prisma),
      reach,
      noTokenNames,
    ).execute(TeamMetricsRpc.request.parse({ ctx, query: { from: '2026-11-02T00:00:00Z', to: '2026-11-04T00:00:00Z', ...query } }));

  it('team: per member messages sent, first responses and tickets; isolated, narrowed to reach, and equal after a rebuild', async () => {
    const org = (await createOrg(t.prisma)).id;
    const other = (await createOrg(t.prisma)).id;
    await apply(t.prisma, other, script());
    await t.prisma.$transaction((tx) => applyFacts(tx, messages(other)));
    expect((await team(org)).members).toEqual([]);
    const steps = script();
    await apply(t.prisma, org, steps);
    await storeTickets(t.prisma, org, steps);
    const msgs = messages(org);
    for (const f of [...msgs].reverse()) await t.prisma.$transaction((tx) => applyFacts(tx, [f, msgs[0]]));
    const live = await team(org);
    expect(live.members).toEqual(TEAM);
    expect((await team(other)).members).toEqual(TEAM);
    expect((await team(org, { phone_id: 'another-phone' })).members).toEqual([]);
    expect((await team(org, {}, memberCtx(org), onlyC1)).members).toEqual(TEAM_C1);
    // the same messages as the chats service stores them, senders included: a rebuild gives the same figures
    await t.prisma.message.createMany({
      data: msgs.map((f) =>
        messageRow(
          { id: org },
          { phone_id: PHONE, org_phone: '14155550100@c.us' },
          {
            chatId: f.chat_id,
            fromMe: f.from_me,
            timestamp: new Date(f.at),
            overrides: { message_id: f.message_id, performed_by: f.performed_by ?? null },
          },
        ),
      ),
    });
    await t.prisma.$executeRaw`UPDATE analytics_messages SET performed_by = NULL WHERE org_id = ${org}::uuid`;
    await rebuildPeriod(t.prisma, org, '2026-11-01T00:00:00Z', '2026-11-05T00:00:00Z');
    expect(await team(org)).toEqual(live);
  });
});
