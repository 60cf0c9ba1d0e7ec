import { randomUUID } from 'node:crypto';
import { MessageMetricsRpc, RightNowRpc, TeamMetricsRpc, type ChatCopy, type RequestContext, ServiceError } from '@mapi/contracts';
import { createOrg, newUuid, randomSuffix, useTestDatabase } from '@mapi/testing';
import { applyFacts } from './ingest/apply-facts';
import type { MessageFact } from './ingest/message-facts';
import { MetricsRepository } from './repositories/metrics-repository';
import { TeamMetricsRepository, TicketMetricsRepository } from './repositories/ticket-metrics-repository';
import type { ChatLabels, ChatReach, UnreadChats } from './scope';
import { noLabelAsked, noTokenNames } from './testing/chats-stubs';
import { factsOf } from './testing/message-fact';
import { MessageMetrics } from './usecases/message-metrics/message-metrics.usecase';
import { RightNow } from './usecases/right-now/right-now.usecase';
import { TeamMetrics, type TokenNames } from './usecases/team-metrics/team-metrics.usecase';

/**
 * The figures analytics takes from the chats and members services, against Postgres: messages by label (the
 * period's chats narrowed to those the chats service says carry it: the same figures as a reach of those chats,
 * another organization's never), a member with a label (one call), "now"'s unread chats (asked only when listed,
 * with the request's phone), and team rows naming a token by its name. The services are stand-ins recording
 * their calls; their own side is chats-feature's chat-counts.int-spec.ts and the e2e.
 */
describe('figures from the chats and members services (integration)', () => {
  const t = useTestDatabase('analytics_chats_figures', { poolSize: 4 });
  const T0 = Date.parse('2026-11-02T08:00:00Z');
  const PHONE = `phone-${randomSuffix(4)}`;
  const [C1, C2, C3] = ['1555', '1666', '1777'].map((p) => `${p}${randomSuffix(3)}@c.us`);
  const ctxOf = (org: string, over: Partial<RequestContext> = {}): RequestContext => ({
    org_id: org,
    token_id: randomUUID(),
    phone_scope: null,
    phone: null,
    ...over,
  });
  const memberOf = (org: string) =>
    ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });
  const facts = (org: string, tokenId: string): MessageFact[] => {
    const m = factsOf(org, PHONE, T0);
    return [
      m(C1, 'A', 0, false),
      m(C1, 'B', 4, true, 'ana@example.com'),
      m(C2, 'C', 10, false),
      m(C2, 'D', 11, false),
      m(C2, 'E', 30, true, tokenId),
      m(C3, 'F', 60, false),
    ];
  };
  /** The chats service's label check as a stand-in: the copies of `vip` chats, recording each call. */
  const labelsOf =
    (vip: string[], calls: string[]): ChatLabels =>
    async (_ctx, copies, label) => {
      calls.push(label);
      return label === 'vip' ? copies.filter((c) => vip.includes(c.chat_id)) : [];
    };
  const reachOf =
    (chats: string[]): ChatReach =>
    async (_ctx, copies: ChatCopy[]) =>
      copies.filter((c) => chats.includes(c.chat_id));
  const notAMember: ChatReach = async () => {
    throw new Error('no reach call expected');
  };
  const messages = (org: string, query: Record<string, string>, ctx: RequestContext, reach: ChatReach, labels: ChatLabels) =>
    new MessageMetrics(new MetricsRepository(t.prisma), reach, labels).execute(
      MessageMetricsRpc.request.parse({ ctx, query: { from: '2026-11-02T00:00:00Z', to: '2026-11-03T00:00:00Z', ...query } }),
    );

  it('messages by label: the figures of the chats carrying it, as a reach of those chats gives them; another organization none', async () => {
    const org = (await createOrg(t.prisma)).id;
    const other = (await createOrg(t.prisma)).id;
    await t.prisma.$transaction((tx) => applyFacts(tx, facts(org, newUuid())));
    await t.prisma.$transaction((tx) => applyFacts(tx, facts(other, newUuid())));
    const calls: string[] = [];
    const labels = labelsOf([C1, C2], calls);
    const byLabel = await messages(org, { label: 'vip' }, ctxOf(org), notAMember, labels);
    expect(calls).toEqual(['vip']);
    expect(byLabel.label).toBe('vip');
    expect(byLabel.totals).toMatchObject({ active_chats: 2, incoming: 3, outgoing: 2 });
    // the same figures as a member reaching C1 and C2 only (summed per chat), and fewer than everyone's
    const reached = await messages(org, {}, memberOf(org), reachOf([C1, C2]), noLabelAsked);
    expect({ ...byLabel, label: null }).toEqual(reached);
    expect((await messages(org, {}, ctxOf(org), notAMember, noLabelAsked)).totals).toMatchObject({ active_chats: 3, incoming: 4 });
    // a label no chat carries: zeros; another organization's chats are never candidates
    expect((await messages(org, { label: 'nothing' }, ctxOf(org), notAMember, labels)).totals).toMatchObject({
      active_chats: 0,
      incoming: 0,
      outgoing: 0,
      first_response_ms: { count: 0 },
    });
    const seen: ChatCopy[][] = [];
    await messages(org, { label: 'vip' }, ctxOf(org), notAMember, async (_c, copies) => (seen.push(copies), copies));
    expect(
      seen
        .flat()
        .map((c) => c.chat_id)
        .sort(),
    ).toEqual([C1, C2, C3].sort());
    // a member with a label: one label call (it keeps their reach too), no separate reach call
    const before = calls.length;
    const hers = await messages(org, { label: 'vip' }, memberOf(org), notAMember, labelsOf([C1], calls));
    expect(calls.length - before).toBe(1);
    expect(hers.totals).toMatchObject({ active_chats: 1, incoming: 1, outgoing: 1 });
  });

  it('"now" asks the chats service for the unread chats only when listed, with the request\'s phone; 404 before asking', async () => {
    const org = (await createOrg(t.prisma)).id;
    const asked: (string | undefined)[] = [];
    const unread: UnreadChats = async (_ctx, phoneId) => (asked.push(phoneId), phoneId === PHONE ? 2 : 7);
    const now = (query: Record<string, unknown>, ctx = ctxOf(org)) =>
      new RightNow(new MetricsRepository(t.prisma), new TicketMetricsRepository(t.prisma), notAMember, unread, () => T0).execute(
        RightNowRpc.request.parse({ ctx, query }),
      );
    expect((await now({})).unread_chats).toBe(7);
    expect((await now({ phone_id: PHONE })).unread_chats).toBe(2);
    expect(asked).toEqual([undefined, PHONE]);
    const listed = await now({ lists: 'waiting' });
    expect(listed.unread_chats).toBeNull();
    expect(listed.waiting).toEqual({ count: 0, chats: [] });
    expect((await now({ lists: 'unread_chats' })).unread_chats).toBe(7);
    expect(asked).toHaveLength(3);
    const scoped = ctxOf(org, { phone_scope: ['phone-a'] });
    await expect(now({ phone_id: PHONE }, scoped)).rejects.toMatchObject({ status: 404 });
    await expect(now({ phone_id: PHONE }, scoped)).rejects.toBeInstanceOf(ServiceError);
    expect(asked).toHaveLength(3);
  });

  it("team rows name a token by the members service's name; emails and unknown ids keep null", async () => {
    const org = (await createOrg(t.prisma)).id;
    const token = newUuid();
    await t.prisma.$transaction((tx) => applyFacts(tx, facts(org, token)));
    const keysAsked: string[][] = [];
    const names: TokenNames = async (_ctx, keys) => (keysAsked.push(keys), new Map([[token, 'Zapier bot']]));
    const team = (tokenNames: TokenNames) =>
      new TeamMetrics(
        new TeamMetricsRepository(t.prisma),
        new MetricsRepository(t.prisma),
        new TicketMetricsRepository(t.prisma),
        notAMember,
        tokenNames,
      ).execute(TeamMetricsRpc.request.parse({ ctx: ctxOf(org), query: { from: '2026-11-02T00:00:00Z', to: '2026-11-03T00:00:00Z' } }));
    const rows = (await team(names)).members.map((m) => [m.member, m.name, m.messages_sent]);
    expect(rows).toHaveLength(2);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['ana@example.com', null, 1],
        [token, 'Zapier bot', 1],
      ]),
    );
    expect(keysAsked.map((k) => [...k].sort())).toEqual([['ana@example.com', token].sort()]);
    expect((await team(noTokenNames)).members.every((m) => m.name === null)).toBe(true);
  });
});
