import type { RequestContext } from '@mapi/contracts';
import { TeamMetricsRpc } from '@mapi/contracts';
import { eventSubject, publishDurable, type DomainEvent } from '@mapi/events';
import { createOrg, newUuid, randomSuffix, testEnv, useTestDatabase, waitUntil } from '@mapi/testing';
import { useLiveIntake } from './testing/live-intake';
import { MetricsRepository } from './repositories/metrics-repository';
import { TeamMetricsRepository, TicketMetricsRepository } from './repositories/ticket-metrics-repository';
import type { ChatReach } from './scope';
import { TeamMetrics } from './usecases/team-metrics/team-metrics.usecase';
import { noTokenNames } from './testing/chats-stubs';

/**
 * The team figures of live sends (docs/services/analytics.md "Team"): `message.created` carries the sent message's
 * performed_by (the sending member's email, or the token's id: docs/services/queue.md "Sender"), the durable intake
 * keeps it, and /analytics/team counts the messages, chats and first responses of each sender. A workflow's send
 * (no sender) counts for no one. Postgres and JetStream; another organization sees nothing.
 */
describe('analytics team figures of live sends (integration)', () => {
  const t = useTestDatabase('analytics_team_senders', { poolSize: 4 });
  const live = useLiveIntake(() => t.prisma, testEnv.natsUrl(), `${testEnv.namespace()}-analytics-s-${randomSuffix(3)}`);

  const T0 = Date.parse('2026-11-02T08:00:00Z');
  const MIN = 60_000;
  const PHONE = `phone-${randomSuffix(6)}`;
  const [C1, C2, C3] = ['15550011@c.us', '15550012@c.us', '15550013@c.us'];
  const ANA = 'ana@example.com';
  const TOKEN = newUuid();

  /** A message.created event as the chats service writes it: the whole message, its sender included. */
  const created = (org: string, chat: string, minute: number, fromMe: boolean, performedBy: string | null = null): DomainEvent =>
    ({
      event_id: newUuid(),
      event_type: 'message.created',
      org_id: org,
      phone_id: PHONE,
      created_at: new Date(T0 + minute * MIN).toISOString(),
      data: {
        message_id: `${fromMe}_${chat}_M${minute}`,
        unique_id: `M${minute}`,
        chat_id: chat,
        org_id: org,
        from_me: fromMe,
        body: 'hi',
        message_type: 'chat',
        timestamp: new Date(T0 + minute * MIN).toISOString().replace('.000Z', '+00:00'),
        flag_status: null,
        is_status: null,
        sent_message_id: performedBy ? newUuid() : null,
        performed_by: performedBy,
      },
    }) as unknown as DomainEvent;

  /**
   * C1: a customer writes at 0, Ana answers at 3 (her first response, 3 min) and again at 5. C2: a customer at 10,
   * the token answers at 12 (2 min). C3: a customer at 40, a workflow answers at 41 (no sender), Ana writes at 50.
   */
  const script = (org: string) => [
    created(org, C1, 0, false),
    created(org, C1, 3, true, ANA),
    created(org, C1, 5, true, ANA),
    created(org, C2, 10, false),
    created(org, C2, 12, true, TOKEN),
    created(org, C3, 40, false),
    created(org, C3, 41, true),
    created(org, C3, 50, true, ANA),
  ];

  const ctxOf = (org: string, over: Partial<RequestContext> = {}): RequestContext => ({
    org_id: org,
    token_id: newUuid(),
    phone_scope: null,
    phone: null,
    ...over,
  });
  const everyone: ChatReach = async (_ctx, copies) => copies;
  const team = (org: string, ctx = ctxOf(org), reach = everyone) =>
    new TeamMetrics(
      new TeamMetricsRepository(t.prisma),
      new MetricsRepository(t.prisma),
      new TicketMetricsRepository(t.prisma),
      reach,
      noTokenNames,
    ).execute(TeamMetricsRpc.request.parse({ ctx, query: { from: '2026-11-02T00:00:00Z', to: '2026-11-03T00:00:00Z' } }));

  it("counts a member's live sends, chats and first responses for that member, a token's for the token", async () => {
    const { nc, ns } = await live.start();
    const org = (await createOrg(t.prisma)).id;
    const other = (await createOrg(t.prisma)).id;
    const js = nc.jetstream();
    const events = script(org);
    // in order, then each again under another id (a replay the duplicate window does not catch): counted once
    for (const e of events) await publishDurable(js, eventSubject(ns, e.event_type), e, `${e.event_id}-a`);
    for (const e of events) await publishDurable(js, eventSubject(ns, e.event_type), e, `${e.event_id}-b`);
    await waitUntil(async () => (await t.prisma.analyticsMessage.count({ where: { org_id: org } })) === events.length, 'the sends counted');
    await waitUntil(async () => (await t.prisma.analyticsResponse.count({ where: { org_id: org } })) >= 3, 'the responses folded');

    const members = (await team(org)).members;
    expect(members.map((m) => m.member)).toEqual([ANA, TOKEN]); // most messages sent first; the workflow is no one
    expect(members[0]).toMatchObject({ member: ANA, active_chats: 2, messages_sent: 3, first_response_ms: { median: 3 * MIN, count: 1 } });
    expect(members[1]).toMatchObject({
      member: TOKEN,
      active_chats: 1,
      messages_sent: 1,
      first_response_ms: { median: 2 * MIN, count: 1 },
    });
    expect(await t.prisma.analyticsMessage.count({ where: { org_id: org, from_me: true, performed_by: null } })).toBe(1);

    // a console member reaching C1 only: Ana's figures of C1
    const member = ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'lea@example.com', role: 'member' } });
    const onlyC1: ChatReach = async (_ctx, copies) => copies.filter((c) => c.chat_id === C1);
    const narrowed = (await team(org, member, onlyC1)).members;
    expect(narrowed.map((m) => [m.member, m.active_chats, m.messages_sent, m.first_response_ms.count])).toEqual([[ANA, 1, 2, 1]]);
    // another organization: nothing of it
    expect((await team(other)).members).toEqual([]);
  }, 30_000);
});
