import { RightNowRpc, type RequestContext } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { createOrg, newUuid, randomSuffix, useTestDatabase } from '@mapi/testing';
import { MetricsRepository } from '../repositories/metrics-repository';
import { TicketMetricsRepository } from '../repositories/ticket-metrics-repository';
import type { ChatReach } from '../scope';
import { RightNow } from '../usecases/right-now/right-now.usecase';
import { applySlaFacts } from './apply-sla-facts';
import { fireDueBreaches } from './fire-breaches';
import type { SlaMessageFact } from './sla-facts';
import { SlaPolicyRepository } from './sla-policy-repository';
import { noUnreadChats } from '../testing/chats-stubs';

/**
 * "Right now" lists the chats breaching an SLA (issue 34: the console's chat-list mark): a wait breached and
 * not answered since, one entry per chat copy with every policy it breaches, the earliest deadline first; a
 * reply takes it off; a pending wait (deadline not passed) or a wait cancelled in time is not listed; another
 * organization, another phone and a member's reach see only theirs.
 */
describe('SLA breaching chats in /analytics/now (integration)', () => {
  const t = useTestDatabase('analytics_sla_breaching', { poolSize: 4 });
  const MINUTE = 1_000;
  const [P1, P2] = [`phone-${randomSuffix(4)}`, `phone-${randomSuffix(4)}`];
  let seq = 0;
  const chat = () => `1777${String(++seq).padStart(6, '0')}@c.us`;
  const msg = (org: string, chat_id: string, at: number, from_me = false, phone_id = P1): SlaMessageFact => ({
    org_id: org,
    phone_id,
    chat_id,
    message_id: `m-${randomSuffix(6)}`,
    at,
    from_me,
  });
  const apply = (facts: SlaMessageFact[]) =>
    t.prisma.$transaction((tx) => applySlaFacts(tx, facts, { now: Date.now(), minuteMs: MINUTE, lateCutoffMs: 3_600_000 }));
  const fireAll = () => fireDueBreaches(t.prisma as PrismaClient, 1000, 0);
  const ctxOf = (org_id: string, over: Partial<RequestContext> = {}): RequestContext => ({
    org_id,
    token_id: newUuid(),
    phone_scope: null,
    phone: null,
    ...over,
  });
  const everyone: ChatReach = async (_ctx, copies) => copies;
  /** "Now" of the answers (their waiting_ms and overdue_ms), fixed so that answers compare equal. */
  let asOf = Date.now();
  const breaching = async (org: string, query: Record<string, string> = {}, ctx = ctxOf(org), reach = everyone) => {
    const answer = await new RightNow(
      new MetricsRepository(t.prisma),
      new TicketMetricsRepository(t.prisma),
      reach,
      noUnreadChats,
      () => asOf,
    ).execute(RightNowRpc.request.parse({ ctx, query }));
    if (!answer.breaching) throw new Error('no breaching list in the answer');
    return answer.breaching;
  };
  async function policy(org: string, name: string, minutes: number, kind: 'first_response' | 'next_response' = 'first_response') {
    const p = await new SlaPolicyRepository(t.prisma).create(org, { name, kind, minutes, enabled: true });
    await t.prisma.analyticsSlaPolicy.update({ where: { policy_id: p.policy_id }, data: { created_at: new Date(Date.now() - 60_000) } });
    return p.policy_id;
  }

  it('lists breached, unanswered chats with their policies, earliest first; a reply takes one off; pending ones are not listed', async () => {
    const org = (await createOrg(t.prisma)).id;
    const other = (await createOrg(t.prisma)).id;
    const [quick, slow] = [await policy(org, 'Quick', 1), await policy(org, 'Slow', 8)];
    await policy(other, 'Other', 1);
    const [c1, c2, c3] = [chat(), chat(), chat()];
    const now = Date.now();
    const first = msg(org, c1, now - 20 * MINUTE);
    await apply([first, msg(org, c1, now - 19 * MINUTE), msg(org, c2, now - 15 * MINUTE, false, P2), msg(org, c3, now - 2 * MINUTE)]);
    await apply([msg(other, c1, now - 10 * MINUTE)]);
    await fireAll();
    asOf = Date.now();
    // c1 breaches both policies; c2 both; c3 only Quick (Slow's deadline, 6 s away, is pending: not listed)
    const all = await breaching(org);
    expect(all.count).toBe(3);
    expect(all.chats.map((c) => [c.phone_id, c.chat_id, c.policies.map((p) => p.name).sort()])).toEqual([
      [P1, c1, ['Quick', 'Slow']],
      [P2, c2, ['Quick', 'Slow']],
      [P1, c3, ['Quick']],
    ]);
    const one = all.chats[0];
    expect(one).toMatchObject({
      message_id: first.message_id,
      waiting_since: new Date(first.at).toISOString(),
      due_at: new Date(first.at + MINUTE).toISOString(),
    });
    expect(one.policies.find((p) => p.name === 'Quick')).toEqual({ policy_id: quick, name: 'Quick', kind: 'first_response', minutes: 1 });
    expect(one.policies.find((p) => p.name === 'Slow')?.policy_id).toBe(slow);
    expect(one.overdue_ms).toBeGreaterThanOrEqual(19 * MINUTE);
    expect(one.waiting_ms).toBeGreaterThanOrEqual(one.overdue_ms);
    expect(Date.parse(one.breached_at)).toBeGreaterThanOrEqual(Date.parse(one.due_at));

    // limit, phone, another organization, a member's reach
    expect(await breaching(org, { limit: '1' })).toEqual({ count: 3, chats: [all.chats[0]] });
    expect((await breaching(org, { phone_id: P2 })).chats.map((c) => c.chat_id)).toEqual([c2]);
    expect((await breaching(other)).chats.map((c) => c.chat_id)).toEqual([c1]);
    expect(await breaching(org, {}, ctxOf(org, { phone_scope: [P2] }))).toMatchObject({ count: 1 });
    const member = ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });
    const onlyC3: ChatReach = async (_ctx, copies) => copies.filter((c) => c.chat_id === c3);
    expect(await breaching(org, {}, member, onlyC3)).toEqual({ count: 1, chats: [all.chats[2]] });

    // a reply closes every breached wait of its chat copy: off the list (another phone's copy of the chat stays)
    await apply([msg(org, c1, Date.now(), true)]);
    expect((await breaching(org)).chats.map((c) => c.chat_id)).toEqual([c2, c3]);
    await apply([msg(org, c2, Date.now(), true, P1)]); // the same chat id on another phone answers nothing of P2's copy
    expect((await breaching(org)).count).toBe(2);
    // the next unanswered message of c1 waits again (next_response has no policy here: nothing new)
    await apply([msg(org, c1, Date.now() + 1)]);
    await fireAll();
    expect((await breaching(org)).chats.map((c) => c.chat_id)).toEqual([c2, c3]);
  });

  it('lists=breaching answers that list only; an unknown list is refused naming the field', async () => {
    const org = (await createOrg(t.prisma)).id;
    await policy(org, 'Quick', 1);
    await apply([msg(org, chat(), Date.now() - 5 * MINUTE)]);
    await fireAll();
    const run = (query: Record<string, unknown>) =>
      new RightNow(new MetricsRepository(t.prisma), new TicketMetricsRepository(t.prisma), everyone, noUnreadChats).execute(
        RightNowRpc.request.parse({ ctx: ctxOf(org), query }),
      );
    const only = await run({ lists: 'breaching' });
    expect(Object.keys(only).sort()).toEqual(['as_of', 'breaching', 'unread_chats']);
    expect(only.breaching?.count).toBe(1);
    expect(Object.keys(await run({ lists: ['flagged', 'waiting,waiting'] })).sort()).toEqual([
      'as_of',
      'flagged',
      'unread_chats',
      'waiting',
    ]);
    expect(Object.keys(await run({})).sort()).toEqual(['as_of', 'breaching', 'flagged', 'open_tickets', 'unread_chats', 'waiting']);
    // the gateway's parsed query (an array) is valid again in the service
    const parsed = RightNowRpc.request.parse({ ctx: ctxOf(org), query: { lists: 'breaching, open_tickets' } }).query.lists;
    expect(parsed).toEqual(['open_tickets', 'breaching']);
    expect(RightNowRpc.request.parse({ ctx: ctxOf(org), query: { lists: parsed } }).query.lists).toEqual(parsed);
    for (const lists of ['nope', '', ',', 'breaching,unread', 5]) {
      const refused = RightNowRpc.request.safeParse({ ctx: ctxOf(org), query: { lists } });
      expect(refused.success ? null : refused.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['query.lists', 'lists must name one or more of waiting, flagged, open_tickets, breaching, unread_chats, separated by commas'],
      ]);
    }
  });

  it('a wait cancelled in time, a disabled and a deleted policy list nothing', async () => {
    const org = (await createOrg(t.prisma)).id;
    const repo = new SlaPolicyRepository(t.prisma);
    const [a, b] = [await policy(org, 'A', 1), await policy(org, 'B', 1)];
    const [c1, c2, c3] = [chat(), chat(), chat()];
    const now = Date.now();
    await apply([msg(org, c1, now), msg(org, c2, now - 5 * MINUTE), msg(org, c3, now - 5 * MINUTE)]);
    await apply([msg(org, c1, now + 10, true)]); // in time: cancelled
    await fireAll();
    expect((await breaching(org)).chats.map((c) => [c.chat_id, c.policies.length])).toEqual([
      [c2, 2],
      [c3, 2],
    ]);
    await repo.update(org, a, { enabled: false }); // its open waits dropped
    expect((await breaching(org)).chats.map((c) => [c.chat_id, c.policies.map((p) => p.policy_id)])).toEqual([
      [c2, [b]],
      [c3, [b]],
    ]);
    await repo.delete(org, b);
    expect(await breaching(org)).toEqual({ count: 0, chats: [] });
  });
});
