import { CreateSlaPolicyRpc, PutBusinessHoursRpc, UpdateSlaPolicyRpc, GetSlaPolicyRpc } from '@mapi/contracts';
import { mapBusinessHours } from '../business-hours/map-business-hours';
import { planWaits, type PlanInput } from './plan-waits';
import type { SlaPolicyRow } from './map-sla-policy';
import { slaLabelFactOf, slaMessageFactOf } from './sla-facts';

const ctx = {
  org_id: '00000000-0000-4000-8000-000000000001',
  token_id: '00000000-0000-4000-8000-000000000002',
  phone_scope: null,
  phone: null,
};
const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.success ? [] : (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

describe('PUT /analytics/business-hours body', () => {
  const put = (body: unknown) => issues(PutBusinessHoursRpc.request.safeParse({ ctx, body }));
  const monday = { monday: [{ start: '09:00', end: '17:00' }] };

  it('takes a zone, hours per weekday (overnight and 24:00 allowed) and holidays', () => {
    expect(put({ time_zone: 'Europe/Paris', weekly: monday })).toEqual([]);
    expect(
      put({
        time_zone: 'UTC',
        weekly: { friday: [{ start: '22:00', end: '06:00' }], sunday: [{ start: '18:00', end: '24:00' }] },
        holidays: ['2026-12-25'],
      }),
    ).toEqual([]);
  });

  it('names the field of every refusal', () => {
    expect(put({ time_zone: 'Mars/Olympus', weekly: monday })).toEqual([
      'body.time_zone: time_zone must be an IANA time zone name (e.g. Europe/Paris, UTC)',
    ]);
    expect(put({ time_zone: '+01:00', weekly: monday })).toHaveLength(1);
    expect(put({ weekly: monday })[0]).toMatch(/^body.time_zone: time_zone is required/);
    expect(put({ time_zone: 'UTC', weekly: { monday: [{ start: '9:00', end: '17:00' }] } })).toEqual([
      'body.weekly.monday.0.start: start must be a local time HH:MM between 00:00 and 24:00',
    ]);
    expect(put({ time_zone: 'UTC', weekly: { monday: [{ start: '24:00', end: '01:00' }] } })).toEqual([
      'body.weekly.monday.0.start: start must be before 24:00',
    ]);
    for (const end of ['25:00', '12:60', '1200:', '12:000'])
      expect(put({ time_zone: 'UTC', weekly: { monday: [{ start: '09:00', end }] } })).toEqual([
        'body.weekly.monday.0.end: end must be a local time HH:MM between 00:00 and 24:00',
      ]);
    expect(put({ time_zone: 'UTC', weekly: { monday: [{ start: '09:00', end: '09:00' }] } })[0]).toMatch(
      /^body.weekly.monday.0.end: end must differ/,
    );
    expect(
      put({
        time_zone: 'UTC',
        weekly: {
          monday: [
            { start: '09:00', end: '12:00' },
            { start: '11:00', end: '13:00' },
          ],
        },
      }),
    ).toEqual(['body.weekly.monday.1: intervals of a day must not overlap']);
    expect(put({ time_zone: 'UTC', weekly: { funday: [] } })[0]).toMatch(/^body.weekly/);
    expect(put({ time_zone: 'UTC', weekly: {} })[0]).toMatch(/^body.weekly: at least one weekday must have hours/);
    expect(put({ time_zone: 'UTC', weekly: monday, holidays: ['2026-02-30'] })).toEqual([
      'body.holidays.0: each holiday must be a date YYYY-MM-DD',
    ]);
    expect(put({ time_zone: 'UTC', weekly: monday, extra: 1 })).toHaveLength(1);
  });

  it('answers every weekday, holidays sorted and unique', () => {
    const answer = mapBusinessHours({
      org_id: ctx.org_id,
      time_zone: 'UTC',
      weekly: monday,
      holidays: ['2026-12-31', '2026-12-25', '2026-12-31'],
      updated_at: new Date('2026-11-29T00:00:00Z'),
    });
    expect(answer.weekly.sunday).toEqual([]);
    expect(answer.weekly.monday).toEqual(monday.monday);
    expect(answer.holidays).toEqual(['2026-12-25', '2026-12-31']);
  });
});

describe('SLA policy bodies', () => {
  const create = (body: unknown) => issues(CreateSlaPolicyRpc.request.safeParse({ ctx, body }));

  it('takes a kind, whole minutes (1 to 30 days), a label or a phone', () => {
    expect(create({ name: 'VIP', kind: 'first_response', minutes: 15, label_id: 'vip' })).toEqual([]);
    expect(create({ name: 'All', kind: 'next_response', minutes: 43_200, phone_id: null })).toEqual([]);
  });

  it('refuses what is not a policy, naming the field', () => {
    expect(create({ name: 'x', kind: 'resolution', minutes: 5 })).toEqual(['body.kind: kind must be one of first_response, next_response']);
    expect(create({ name: 'x', kind: 'first_response', minutes: 0 })).toEqual(['body.minutes: minutes must be at least 1']);
    expect(create({ name: 'x', kind: 'first_response', minutes: 1.5 })).toEqual([
      'body.minutes: minutes must be a whole number of minutes',
    ]);
    expect(create({ name: 'x', kind: 'first_response', minutes: 43_201 })).toEqual([
      'body.minutes: minutes must be at most 43200 (30 days)',
    ]);
    expect(create({ name: 'x', kind: 'first_response', minutes: '5' })).toEqual([
      'body.minutes: minutes must be a whole number of minutes',
    ]);
    expect(create({ name: ' ', kind: 'first_response', minutes: 5 })).toEqual(['body.name: name must not be empty']);
    expect(create({ name: 'x', kind: 'first_response', minutes: 5, label_id: '' })).toEqual(['body.label_id: label_id must not be empty']);
    expect(create({ name: 'x', kind: 'first_response', minutes: 5, seconds: 1 })).toHaveLength(1);
    expect(issues(UpdateSlaPolicyRpc.request.safeParse({ ctx, params: { policy_id: ctx.org_id }, body: {} }))).toEqual([
      'body: the body must name at least one field to change',
    ]);
    expect(issues(GetSlaPolicyRpc.request.safeParse({ ctx, params: { policy_id: 'nope' } }))).toEqual([
      'params.policy_id: policy_id must be a UUID',
    ]);
  });
});

describe('planWaits and the facts it reads', () => {
  const policy = (over: Partial<SlaPolicyRow> = {}): SlaPolicyRow => ({
    policy_id: '00000000-0000-4000-8000-00000000000a',
    org_id: ctx.org_id,
    name: 'p',
    kind: 'first_response',
    minutes: 10,
    label_id: null,
    phone_id: null,
    enabled: true,
    created_at: new Date(0),
    updated_at: new Date(0),
    ...over,
  });
  const NOW = Date.parse('2026-11-30T10:00:00Z');
  const input = (over: Partial<PlanInput> = {}): PlanInput => ({
    incoming: [{ org_id: ctx.org_id, phone_id: 'p1', chat_id: 'c@c.us', message_id: 'm1', at: NOW - 1000, from_me: false }],
    policies: [policy()],
    schedules: new Map(),
    lastOut: new Map(),
    labels: new Map(),
    now: NOW,
    minuteMs: 60_000,
    lateCutoffMs: 3_600_000,
    ...over,
  });

  it('gives a wall-clock deadline without a schedule, a business one with it, none when its hours never come', () => {
    expect(planWaits(input())[0]).toMatchObject({ started_at: NOW - 1000, due_at: NOW - 1000 + 600_000, business_hours: false });
    const office = { time_zone: 'UTC', weekly: { monday: [{ start: '09:00', end: '10:00' }] }, holidays: [] };
    // Monday 09:59:59 + 10 business minutes: the next Monday 09:09:59
    expect(planWaits(input({ schedules: new Map([[ctx.org_id, office]]) }))[0]).toMatchObject({
      due_at: Date.parse('2026-12-07T09:09:59Z'),
      business_hours: true,
    });
    expect(planWaits(input({ schedules: new Map([[ctx.org_id, { ...office, weekly: {} }]]) }))).toEqual([]);
  });

  it('starts a future-dated message’s wait now, and arms nothing for a policy created after the message', () => {
    const future = input({ incoming: [{ ...input().incoming[0], at: NOW + 60_000 }] });
    expect(planWaits(future)[0].started_at).toBe(NOW);
    expect(planWaits(input({ policies: [policy({ created_at: new Date(NOW) })] }))).toEqual([]);
    // whole-second message timestamps: a policy created later in the message's second still applies
    const sameSecond = input({ incoming: [{ ...input().incoming[0], at: NOW }], policies: [policy({ created_at: new Date(NOW + 400) })] });
    expect(planWaits(sameSecond)).toHaveLength(1);
    expect(planWaits(input({ policies: [policy({ enabled: false })] }))).toEqual([]);
  });

  it('reads message.created and chat.label.updated events only', () => {
    const e = {
      event_type: 'message.created',
      org_id: ctx.org_id,
      phone_id: 'p1',
      created_at: '2026-11-30T10:00:00Z',
      data: { message_id: 'm1', chat_id: 'c@c.us', timestamp: '2026-11-30T09:59:00Z', from_me: false },
    };
    expect(slaMessageFactOf(e)).toEqual({
      org_id: ctx.org_id,
      phone_id: 'p1',
      chat_id: 'c@c.us',
      message_id: 'm1',
      at: NOW - 60_000,
      from_me: false,
    });
    expect(slaMessageFactOf({ ...e, event_type: 'message.flagged' })).toBeNull();
    expect(slaMessageFactOf({ ...e, data: { ...e.data, chat_id: 'status@broadcast' } })).toBeNull();
    const labels = { ...e, event_type: 'chat.label.updated', data: { chat_id: 'c@c.us', label_ids: { b: true, a: true, c: false } } };
    expect(slaLabelFactOf(labels)).toEqual({ org_id: ctx.org_id, chat_id: 'c@c.us', label_ids: ['a', 'b'], version: NOW });
    expect(slaLabelFactOf({ ...labels, data: { label_ids: {} } })).toBeNull();
  });
});
