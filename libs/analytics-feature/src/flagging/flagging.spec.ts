import { CreateFlagRuleBody, UpdateFlagRuleBody } from '@mapi/contracts';
import { addBusinessMs, type BusinessSchedule } from '../business-hours/business-time';
import { flagFactOf } from './flag-facts';
import { flagPrompt, readVerdict } from './flag-model';
import type { FlagRuleRow } from './flag-rule-row';
import { matchKeyword, planFlags, type PlanInput } from './plan-flags';

const ORG = '00000000-0000-4000-8000-000000000001';
const rule = (over: Partial<FlagRuleRow>): FlagRuleRow => ({
  rule_id: `r-${over.kind}`,
  org_id: ORG,
  name: 'Rule',
  kind: 'keyword',
  keywords: [],
  label_id: null,
  minutes: null,
  prompt: null,
  phone_id: null,
  enabled: true,
  created_at: new Date(0),
  updated_at: new Date(0),
  ...over,
});

describe('flagging: keywords', () => {
  it('matches whole words and phrases in any case and script; not inside another word', () => {
    expect(matchKeyword('I want a REFUND now', ['refund'])).toBe('refund');
    expect(matchKeyword('refunds please', ['refund'])).toBeNull();
    expect(matchKeyword('this is not  working!', ['not working'])).toBe('not working');
    expect(matchKeyword('Ça ne marche PAS', ['ne marche pas'])).toBe('ne marche pas');
    expect(matchKeyword('urgent.', ['URGENT'])).toBe('URGENT');
    expect(matchKeyword('price (a+b)?', ['(a+b)'])).toBe('(a+b)');
    expect(matchKeyword(null, ['x'])).toBeNull();
    expect(matchKeyword('nothing here', ['refund', 'cancel'])).toBeNull();
  });
});

describe('flagging: planFlags', () => {
  const now = 1_800_000_000_000;
  const msg = (over: Partial<PlanInput['incoming'][number]> = {}) => ({
    type: 'message' as const,
    org_id: ORG,
    phone_id: 'p1',
    chat_id: '1555@c.us',
    message_id: 'm1',
    at: now - 1000,
    from_me: false,
    body: 'please refund me',
    ...over,
  });
  const plan = (over: Partial<PlanInput>) =>
    planFlags({
      incoming: [msg()],
      rules: [],
      labels: new Map(),
      lastOut: new Map(),
      schedules: new Map(),
      now,
      minuteMs: 1000,
      lateCutoffMs: 60_000,
      modelOn: true,
      ...over,
    });

  it('arms one job per matching rule: keyword and label now, waiting after its minutes, model now with the text', () => {
    const rules = [
      rule({ kind: 'keyword', keywords: ['refund'] }),
      rule({ kind: 'label', label_id: 'vip' }),
      rule({ kind: 'waiting', minutes: 5 }),
      rule({ kind: 'model', prompt: 'angry customers' }),
    ];
    const jobs = plan({ rules, labels: new Map([[`${ORG}\u00001555@c.us`, ['vip']]]) });
    expect(jobs.map((j) => [j.rule_id, j.due_at - now, j.reason, j.body])).toEqual([
      ['r-keyword', 0, 'Rule: the message says "refund"', null],
      ['r-label', 0, 'Rule: the chat is labelled vip', null],
      ['r-waiting', 5000 - 1000, 'Rule: no reply within 5 minutes', null],
      ['r-model', 0, null, 'please refund me'],
    ]);
  });

  it('counts a waiting rule in business hours when the organization has a schedule (as SLA deadlines), never when none come', () => {
    // Friday 2026-11-27 16:59:30 UTC, office hours 09:00–17:00 UTC on weekdays: 30 s left on Friday, the rest from Monday 09:00
    const friday = Date.parse('2026-11-27T16:59:30Z');
    const day = [{ start: '09:00', end: '17:00' }];
    const office: BusinessSchedule = {
      time_zone: 'UTC',
      weekly: { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day },
      holidays: ['2026-11-30'],
    };
    const waiting = rule({ kind: 'waiting', minutes: 2 });
    const at = (over: Partial<PlanInput>) =>
      plan({ rules: [waiting], incoming: [msg({ at: friday })], now: friday + 1000, minuteMs: 60_000, ...over });
    const [business] = at({ schedules: new Map([[ORG, office]]) });
    // Monday the 30th is a holiday: Tuesday 09:01:30
    expect(new Date(business.due_at).toISOString()).toBe('2026-12-01T09:01:30.000Z');
    expect(business.due_at).toBe(addBusinessMs(office, friday, 2 * 60_000));
    expect(business.reason).toBe('Rule: no reply within 2 minutes of business hours');
    // another organization's schedule does not apply; without one, wall-clock time
    const [wall] = at({ schedules: new Map([['00000000-0000-4000-8000-000000000002', office]]) });
    expect([wall.due_at - friday, wall.reason]).toEqual([120_000, 'Rule: no reply within 2 minutes']);
    // keyword rules stay due now whatever the schedule
    const kw = at({ rules: [rule({ kind: 'keyword', keywords: ['refund'] })], schedules: new Map([[ORG, office]]) });
    expect(kw.map((j) => j.due_at)).toEqual([friday + 1000]);
    // a schedule whose hours never come (all holidays aside, an empty week) arms no waiting job
    expect(at({ schedules: new Map([[ORG, { time_zone: 'UTC', weekly: {}, holidays: [] }]]) })).toEqual([]);
  });

  it('arms nothing for a reply, an answered, late or pre-rule message, another phone, another organization, a model rule without a model', () => {
    const kw = rule({ kind: 'keyword', keywords: ['refund'] });
    expect(plan({ rules: [kw], incoming: [msg({ from_me: true })] })).toEqual([]);
    expect(plan({ rules: [kw], lastOut: new Map([[`${ORG}\u00001555@c.us`, now - 1000]]) })).toEqual([]);
    expect(plan({ rules: [kw], lastOut: new Map([[`${ORG}\u00001555@c.us`, now - 2000]]) })).toHaveLength(1);
    expect(plan({ rules: [kw], incoming: [msg({ at: now - 61_000 })] })).toEqual([]);
    expect(plan({ rules: [rule({ ...kw, created_at: new Date(now) })] })).toEqual([]);
    expect(plan({ rules: [rule({ ...kw, created_at: new Date(now - 1500) })] })).toHaveLength(1);
    expect(plan({ rules: [rule({ ...kw, phone_id: 'p2' })] })).toEqual([]);
    expect(plan({ rules: [rule({ ...kw, org_id: '00000000-0000-4000-8000-000000000002' })] })).toEqual([]);
    expect(plan({ rules: [rule({ kind: 'model', prompt: 'x' })], modelOn: false })).toEqual([]);
    expect(plan({ rules: [rule({ kind: 'model', prompt: 'x' })], incoming: [msg({ body: '  ' })] })).toEqual([]);
    expect(plan({ rules: [rule({ kind: 'label', label_id: 'vip' })] })).toEqual([]);
  });
});

describe('flagging: the model', () => {
  it('asks with the rule and the message, and reads JSON, fenced JSON or a first word', () => {
    const [system, user] = flagPrompt('the customer is angry', 'this is the third time!');
    expect(system.content).toContain('the customer is angry');
    expect(user).toEqual({ role: 'user', content: 'this is the third time!' });
    expect(readVerdict('{"flag": true, "reason": "Angry customer"}')).toEqual({ flag: true, reason: 'Angry customer' });
    expect(readVerdict('```json\n{"flag": false}\n```')).toEqual({ flag: false, reason: null });
    expect(readVerdict('FLAG: repeated complaint')).toEqual({ flag: true, reason: 'repeated complaint' });
    expect(readVerdict('no')).toEqual({ flag: false, reason: null });
    expect(readVerdict('I am not sure')).toBeNull();
    expect(readVerdict('{"flag": "maybe"}')).toBeNull();
  });
});

describe('flagging: events read', () => {
  const ev = (event_type: string, data: Record<string, unknown>) => ({
    event_type,
    org_id: ORG,
    phone_id: 'p1',
    created_at: '2026-11-29T10:00:05.000Z',
    data: { message_id: 'm1', chat_id: '1555@c.us', timestamp: '2026-11-29T10:00:00+00:00', from_me: false, body: 'hi', ...data },
  });

  it('takes message.created (text, direction) and flag states (flagged_at), nothing else nor statuses', () => {
    expect(flagFactOf(ev('message.created', {}))).toMatchObject({
      type: 'message',
      from_me: false,
      body: 'hi',
      at: Date.parse('2026-11-29T10:00:00Z'),
    });
    expect(flagFactOf(ev('message.flagged', { flag_metadata: { status: true, flagged_at: '2026-11-29T10:00:03.000Z' } }))).toMatchObject({
      type: 'state',
      flagged: true,
      flagged_at: Date.parse('2026-11-29T10:00:03Z'),
      version: Date.parse('2026-11-29T10:00:05Z'),
    });
    expect(flagFactOf(ev('message.unflagged', {}))).toMatchObject({ type: 'state', flagged: false, flagged_at: null });
    expect(flagFactOf(ev('message.updated', {}))).toBeNull();
    expect(flagFactOf(ev('message.created', { chat_id: 'status@broadcast' }))).toBeNull();
    expect(flagFactOf(ev('message.created', { timestamp: 'never' }))).toBeNull();
  });
});

describe('flagging: rule bodies', () => {
  const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
    (r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]);

  it('asks each kind for its own field, refuses the others, and names the field', () => {
    expect(CreateFlagRuleBody.safeParse({ name: 'a', kind: 'keyword', keywords: ['refund'] }).success).toBe(true);
    expect(issues(CreateFlagRuleBody.safeParse({ name: 'a', kind: 'keyword' }))).toEqual([
      ['keywords', 'keywords is required for a keyword rule'],
    ]);
    expect(issues(CreateFlagRuleBody.safeParse({ name: 'a', kind: 'waiting', minutes: 5, prompt: 'x' }))).toEqual([
      ['prompt', 'prompt does not apply to a waiting rule (it takes minutes)'],
    ]);
    expect(issues(CreateFlagRuleBody.safeParse({ name: 'a', kind: 'waiting', minutes: 0 }))).toEqual([
      ['minutes', 'minutes must be at least 1'],
    ]);
    expect(issues(CreateFlagRuleBody.safeParse({ name: 'a', kind: 'keyword', keywords: [] }))).toEqual([
      ['keywords', 'keywords must name at least one word or phrase'],
    ]);
    expect(issues(CreateFlagRuleBody.safeParse({ name: 'a', kind: 'other' }))[0][0]).toBe('kind');
    expect(issues(CreateFlagRuleBody.safeParse({ name: 'a', kind: 'label', label_id: 'x', extra: 1 }))[0][1]).toMatch(/extra/);
    expect(UpdateFlagRuleBody.safeParse({}).success).toBe(false);
    expect(UpdateFlagRuleBody.safeParse({ kind: 'label' }).success).toBe(false);
  });
});
