import type { PrismaClient } from '@mapi/db';
import { ensureStreams, eventSubject, publishDurable, streamNames } from '@mapi/events';
import { connectNats } from '@mapi/platform';
import { createOrg, newUuid, randomSuffix, testEnv, useTestDatabase, waitUntil } from '@mapi/testing';
import pino from 'pino';
import { addBusinessMs } from '../business-hours/business-time';
import { BusinessHoursRepository } from '../business-hours/business-hours-repository';
import { applyLabelFacts, applySlaFacts } from './apply-sla-facts';
import { fireDueBreaches } from './fire-breaches';
import type { SlaMessageFact } from './sla-facts';
import { SlaIntake } from './sla-intake';
import { SlaPolicyRepository } from './sla-policy-repository';

/**
 * The SLA timers against Postgres (and JetStream for the durable): a wait armed by an incoming message,
 * cancelled by a reply in time, fired once by whichever claimer takes it first (a second one gets
 * nothing, one holding the row makes another skip it), late/duplicate/out-of-order messages arming
 * nothing false, policies per kind, phone and label, business hours, organizations kept apart.
 */
describe('SLA timers (integration)', () => {
  const t = useTestDatabase('analytics_sla_int', { poolSize: 6 });
  const MINUTE = 200; // a policy's minute, in ms (SLA_MINUTE_MS in tests)
  const opts = (now = Date.now()) => ({ now, minuteMs: MINUTE, lateCutoffMs: 3_600_000 });
  const PHONE = `phone-${randomSuffix(4)}`;
  let seq = 0;
  const chat = () => `1555${String(++seq).padStart(6, '0')}@c.us`;
  const msg = (org: string, chat_id: string, at: number, from_me = false, phone_id = PHONE): SlaMessageFact => ({
    org_id: org,
    phone_id,
    chat_id,
    message_id: `m-${randomSuffix(5)}`,
    at,
    from_me,
  });
  const apply = (facts: SlaMessageFact[], now = Date.now()) => t.prisma.$transaction((tx) => applySlaFacts(tx, facts, opts(now)));
  const timers = (org: string) => t.prisma.analyticsSlaTimer.findMany({ where: { org_id: org }, orderBy: { started_at: 'asc' } });
  const breachEvents = (org: string) =>
    t.prisma.$queryRaw<
      { payload: { breach_id: string } }[]
    >`SELECT payload FROM outbox_events WHERE org_id = ${org}::uuid AND type = 'sla.breached'`;
  /** An organization with one policy (created a minute ago, so messages from now on are after it). */
  async function orgWith(
    policy: Partial<{ kind: 'first_response' | 'next_response'; minutes: number; label_id: string; phone_id: string }> = {},
  ) {
    const org = (await createOrg(t.prisma)).id;
    const p = await new SlaPolicyRepository(t.prisma).create(org, {
      name: 'p',
      kind: 'first_response',
      minutes: 1,
      enabled: true,
      ...policy,
    });
    await t.prisma.analyticsSlaPolicy.update({ where: { policy_id: p.policy_id }, data: { created_at: new Date(Date.now() - 60_000) } });
    return { org, policy: p.policy_id };
  }
  const fireAll = () => fireDueBreaches(t.prisma as PrismaClient, 1000, 0);

  it('arms a wait from an incoming message, and a reply before the deadline cancels it: nothing fires', async () => {
    const { org } = await orgWith({ minutes: 5 });
    const c = chat();
    const now = Date.now();
    await apply([msg(org, c, now - 10)]);
    const [armed] = await timers(org);
    expect(armed).toMatchObject({ state: 'pending', chat_id: c, answered_at: null, business_hours: false });
    expect(armed.due_at.getTime()).toBe(now - 10 + 5 * MINUTE);
    await apply([msg(org, c, now + 100, true)]);
    const [after] = await timers(org);
    expect(after).toMatchObject({ state: 'cancelled' });
    expect(after.answered_at?.getTime()).toBe(now + 100);
    await new Promise((r) => setTimeout(r, 5 * MINUTE + 50));
    await fireAll();
    expect(await breachEvents(org)).toHaveLength(0);
  });

  it('fires a passed deadline once: two claimers at once share it, a later one gets nothing', async () => {
    const { org, policy } = await orgWith();
    const c = chat();
    const m = msg(org, c, Date.now());
    await apply([m]);
    await new Promise((r) => setTimeout(r, MINUTE + 50));
    const rounds = await Promise.all([fireAll(), fireAll(), fireAll()]);
    const mine = rounds.flatMap((r) => r.fired).filter((b) => b.policy_id === policy);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ chat_id: c, phone_id: PHONE, message_id: m.message_id, kind: 'first_response', minutes: 1 });
    expect((await fireAll()).fired.filter((b) => b.policy_id === policy)).toHaveLength(0);
    const events = await breachEvents(org);
    expect(events.map((e) => e.payload.breach_id)).toEqual([mine[0].breach_id]);
    expect((await timers(org))[0]).toMatchObject({ state: 'breached' });
    // a reply after the breach closes the wait; the breach stays, and the next message may open a new one
    await apply([msg(org, c, Date.now(), true)]);
    expect((await timers(org))[0]).toMatchObject({ state: 'breached' });
    expect((await timers(org))[0].answered_at).not.toBeNull();
  });

  it('skips a wait another claimer holds (FOR UPDATE SKIP LOCKED), and takes it once that claimer rolls back', async () => {
    const { org, policy } = await orgWith();
    await apply([msg(org, chat(), Date.now())]);
    await new Promise((r) => setTimeout(r, MINUTE + 50));
    const ours = (r: { fired: { policy_id: string }[] }) => r.fired.filter((b) => b.policy_id === policy).length;
    await t.prisma
      .$transaction(async (tx) => {
        await tx.$queryRaw`SELECT timer_id FROM analytics_sla_timers WHERE org_id = ${org}::uuid FOR UPDATE`;
        expect(ours(await fireAll())).toBe(0); // held: skipped, not waited for
        throw new Error('the holder dies');
      })
      .catch((e: Error) => expect(e.message).toBe('the holder dies'));
    expect(ours(await fireAll())).toBe(1);
    expect(await breachEvents(org)).toHaveLength(1);
  });

  it('a reply after the deadline (the breach not fired yet) does not cancel it', async () => {
    const { org } = await orgWith();
    const c = chat();
    const now = Date.now();
    await apply([msg(org, c, now - 10 * MINUTE)], now);
    await apply([msg(org, c, now, true)], now);
    expect((await timers(org))[0]).toMatchObject({ state: 'pending' });
    await fireAll();
    expect(await breachEvents(org)).toHaveLength(1);
  });

  it('a wait armed after its deadline (a backlog) is held for the grace, so a reply later in the backlog still cancels it', async () => {
    const { org, policy } = await orgWith();
    const [c1, c2] = [chat(), chat()];
    const now = Date.now();
    await apply([msg(org, c1, now - 5_000), msg(org, c2, now - 5_000)]); // deadlines (now - 4.8 s) already passed
    const graced = async () =>
      (await fireDueBreaches(t.prisma as PrismaClient, 1000, 0, 60_000)).fired.filter((b) => b.policy_id === policy);
    expect(await graced()).toHaveLength(0);
    await apply([msg(org, c1, now - 4_900, true)]); // the reply, sent in time, consumed later
    expect((await timers(org)).find((x) => x.chat_id === c1)).toMatchObject({ state: 'cancelled' });
    // once the grace has passed since arming, the unanswered one fires
    await t.prisma.analyticsSlaTimer.updateMany({ where: { org_id: org }, data: { created_at: new Date(now - 120_000) } });
    expect((await graced()).map((b) => b.chat_id)).toEqual([c2]);
  });

  it('late, duplicate and out-of-order messages arm nothing false', async () => {
    const { org } = await orgWith({ minutes: 10 });
    const now = Date.now();
    // a reply consumed before the older incoming message it answered: no wait
    const c1 = chat();
    await apply([msg(org, c1, now - 5_000, true)]);
    await apply([msg(org, c1, now - 6_000)]);
    // older than the cut-off (an import, a replay): no wait
    const c2 = chat();
    await apply([msg(org, c2, now - 2 * 3_600_000)]);
    // from before the policy existed: no wait
    const c3 = chat();
    await apply([msg(org, c3, now - 120_000)]);
    expect(await timers(org)).toHaveLength(0);
    // the same batch twice, and reversed, in one or two transactions: one wait, from the earliest message
    const c4 = chat();
    const [a, b] = [msg(org, c4, now - 3_000), msg(org, c4, now - 1_000)];
    await apply([b]);
    await apply([b, a]);
    await apply([a, b]);
    const [w] = await timers(org);
    expect(await timers(org)).toHaveLength(1);
    expect(w).toMatchObject({ message_id: a.message_id, state: 'pending' });
    expect(w.started_at.getTime()).toBe(a.at);
    // reply and incoming in one batch, in either order: the reply wins for what it answers
    const c5 = chat();
    await apply([msg(org, c5, now - 100, true), msg(org, c5, now - 200)]);
    expect((await timers(org)).filter((x) => x.chat_id === c5)).toHaveLength(0);
  });

  it('first_response only until a chat has a reply, next_response after; per phone and per label', async () => {
    const org = (await createOrg(t.prisma)).id;
    const repo = new SlaPolicyRepository(t.prisma);
    const make = async (body: Partial<{ kind: 'first_response' | 'next_response'; label_id: string; phone_id: string }>) => {
      const p = await repo.create(org, { name: 'p', kind: 'first_response', minutes: 5, enabled: true, ...body });
      await t.prisma.analyticsSlaPolicy.update({ where: { policy_id: p.policy_id }, data: { created_at: new Date(Date.now() - 60_000) } });
      return p.policy_id;
    };
    const [first, next, vip, otherPhone] = [
      await make({}),
      await make({ kind: 'next_response' }),
      await make({ label_id: 'vip' }),
      await make({ phone_id: 'phone-other' }),
    ];
    const c = chat();
    const now = Date.now();
    // the chat's labels: an older event arriving after a newer one changes nothing
    await t.prisma.$transaction((tx) =>
      applyLabelFacts(tx, [
        { org_id: org, chat_id: c, label_ids: ['vip'], version: now - 1000 },
        { org_id: org, chat_id: c, label_ids: [], version: now - 5000 },
      ]),
    );
    await t.prisma.$transaction((tx) => applyLabelFacts(tx, [{ org_id: org, chat_id: c, label_ids: [], version: now - 3000 }]));
    await apply([msg(org, c, now - 2_000)]);
    expect(new Set((await timers(org)).map((x) => x.policy_id))).toEqual(new Set([first, vip]));
    await apply([msg(org, c, now - 1_500, true)]);
    await apply([msg(org, c, now - 1_000)]);
    const open = (await timers(org)).filter((x) => x.answered_at === null).map((x) => x.policy_id);
    expect(open).toEqual([next]);
    expect(open).not.toContain(otherPhone);
  });

  it('counts deadlines in business hours when the organization has a schedule', async () => {
    const { org } = await orgWith({ minutes: 30 });
    const body = { time_zone: 'Europe/Paris', weekly: { monday: [{ start: '09:00', end: '10:00' }] }, holidays: [] };
    const row = await new BusinessHoursRepository(t.prisma).put(org, body);
    const now = Date.now();
    await apply([msg(org, chat(), now)]);
    const [w] = await timers(org);
    expect(w.business_hours).toBe(true);
    expect(w.due_at.getTime()).toBe(addBusinessMs({ ...body, holidays: row.holidays }, now, 30 * MINUTE));
  });

  it('keeps organizations apart: another organization’s reply on the same phone and chat ids cancels nothing', async () => {
    const a = await orgWith({ minutes: 50 });
    const b = await orgWith({ minutes: 50 });
    const c = chat();
    const now = Date.now();
    await apply([msg(a.org, c, now - 10), msg(b.org, c, now - 10)]);
    await apply([msg(b.org, c, now, true)]);
    expect((await timers(a.org))[0]).toMatchObject({ state: 'pending', answered_at: null });
    expect((await timers(b.org))[0]).toMatchObject({ state: 'cancelled' });
  });

  it('disabling a policy drops its open waits; deleting one deletes them', async () => {
    const { org, policy } = await orgWith({ minutes: 50 });
    const repo = new SlaPolicyRepository(t.prisma);
    await apply([msg(org, chat(), Date.now())]);
    await repo.update(org, policy, { name: 'renamed' });
    expect(await timers(org)).toHaveLength(1);
    await repo.update(org, policy, { enabled: false });
    expect(await timers(org)).toHaveLength(0);
    await repo.update(org, policy, { enabled: true });
    await apply([msg(org, chat(), Date.now())]);
    expect(await timers(org)).toHaveLength(1);
    await repo.delete(org, policy);
    expect(await timers(org)).toHaveLength(0);
  });

  it('the durable consumers arm once per message however often it is published, and a reply cancels', async () => {
    const ns = `${testEnv.namespace()}-sla-${randomSuffix(3)}`;
    const nc = await connectNats(testEnv.natsUrl(), 'analytics-sla-int');
    await ensureStreams(nc, ns);
    const intake = new SlaIntake(nc, ns, t.prisma, pino({ level: 'silent' }), {
      minuteMs: MINUTE,
      lateCutoffMs: 3_600_000,
      ackWaitMs: 5_000,
    });
    try {
      await intake.start();
      const { org } = await orgWith({ minutes: 50 });
      const c = chat();
      const event = (from_me: boolean, at: number) => ({
        event_id: newUuid(),
        event_type: 'message.created',
        org_id: org,
        phone_id: PHONE,
        created_at: new Date(at).toISOString(),
        data: { message_id: `m-${randomSuffix(4)}`, chat_id: c, timestamp: new Date(at).toISOString(), from_me },
      });
      const js = nc.jetstream();
      const incoming = event(false, Date.now());
      for (const id of ['a', 'b', 'c'])
        await publishDurable(js, eventSubject(ns, 'message.created'), incoming, `${incoming.event_id}-${id}`);
      await waitUntil(async () => (await timers(org)).length === 1, 'the wait armed');
      const reply = event(true, Date.now() + 10);
      await publishDurable(js, eventSubject(ns, 'message.created'), reply, reply.event_id);
      await waitUntil(async () => (await timers(org))[0]?.state === 'cancelled', 'the wait cancelled');
      expect(await timers(org)).toHaveLength(1);
    } finally {
      await intake.stop();
      const jsm = await nc.jetstreamManager();
      for (const stream of Object.values(streamNames(ns))) await jsm.streams.delete(stream).catch(() => undefined);
      await nc.drain();
    }
  }, 30_000);
});
