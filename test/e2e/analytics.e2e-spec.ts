import { MessageMetricsResultSchema, RightNowResultSchema } from '@mapi/contracts';
import { writeEvents } from '@mapi/events';
import { createOrg, createToken, randomDigits, stubEvents } from '@mapi/testing';
import { joinByInvitation, type ConsoleSession } from './support/console-session';
import { callApi, client, expect404, expect422, expectEnvelope, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/** A median or p90 read from the response-time histograms (docs/decisions/0096): whole ms, within 2 % of the sample `ms`. */
const near = (ms: number) => ({
  asymmetricMatch: (v: unknown) => typeof v === 'number' && Number.isInteger(v) && Math.abs(v - ms) <= 0.02 * ms + 0.5,
  toAsymmetricMatcher: () => `within 2 % of ${ms}`,
});

/**
 * Analytics end to end (issue 34, first slice): message events written to the outbox, published by
 * the chats service's relay, counted by the analytics service's durable consumer and read through
 * the gateway (GET /v1/analytics/messages and /now); bad periods, time zones and limits are the
 * spec's 422 envelope, never a 5xx; another organization's token sees none of it.
 */
describe('analytics', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let orgId: string;
  let token: string;
  const phoneId = `phone-e2e-${randomDigits(6)}`;
  const chat = `${randomDigits()}@c.us`;
  const T0 = Date.parse('2026-11-02T08:00:00Z');
  const period = 'from=2026-11-02T00:00:00Z&to=2026-11-03T00:00:00Z';

  beforeAll(async () => {
    stack = await startStack({}, { services: ['analytics'] });
    orgId = (await createOrg(stack.prisma)).id;
    token = (await createToken(stack.prisma, orgId)).token;
    api = client(stack.baseUrl, token);
    other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  const message = (id: string, minutes: number, fromMe: boolean, chatId = chat) => ({
    type: 'message.created' as const,
    org_id: orgId,
    phone_id: phoneId,
    data: {
      message_id: `${fromMe}_${chatId}_${id}`,
      chat_id: chatId,
      timestamp: new Date(T0 + minutes * 60_000).toISOString().replace('Z', '+00:00'),
      from_me: fromMe,
      flag_status: null,
    },
  });

  it('counts message events from the stream and answers them through the gateway', async () => {
    await writeEvents(stack.prisma, stubEvents([message('A', 0, false), message('B', 3, true), message('C', 30, false)]));
    const res = await until(
      () => api.get(`/analytics/messages?${period}`),
      (r) => r.status === 200 && r.body.totals.incoming === 2,
      20_000,
      'the events counted',
    );
    expect(MessageMetricsResultSchema.parse(res.body)).toEqual(res.body);
    expect(res.body.totals).toEqual({
      active_chats: 1,
      incoming: 2,
      outgoing: 1,
      flagged: 0,
      first_response_ms: { median: near(180_000), p90: near(180_000), count: 1 },
      next_response_ms: { median: null, p90: null, count: 0 },
    });
    expect(res.body.business_hours).toBe(false);
    expect(res.body.series).toHaveLength(1);
    const now = await api.get('/analytics/now');
    expect(now.status).toBe(200);
    expect(RightNowResultSchema.parse(now.body)).toEqual(now.body);
    expect(now.body.waiting.chats).toMatchObject([{ phone_id: phoneId, chat_id: chat, message_id: `false_${chat}_C` }]);
    // another organization's token: nothing of it
    const theirs = await other.get(`/analytics/messages?${period}`);
    expect(theirs.body.totals).toMatchObject({ active_chats: 0, incoming: 0, outgoing: 0 });
    expect((await other.get('/analytics/now')).body.waiting).toEqual({ count: 0, chats: [] });
  }, 40_000);

  it('counts next responses, and response times in business hours once the organization has a schedule', async () => {
    const hours = [{ start: '09:00', end: '17:00' }];
    const weekly = { monday: hours, tuesday: hours, wednesday: hours, thursday: hours, friday: hours };
    expect((await callApi(stack.baseUrl, 'PUT', '/analytics/business-hours', token, { time_zone: 'UTC', weekly })).status).toBe(200);
    // Tuesday 2026-11-03: in at 08:30, answered at 09:10 (first: 10 business minutes of 40); in at 10:00, answered at 10:20 (next)
    const chat2 = `${randomDigits()}@c.us`;
    const day = (h: number, m: number) => 24 * 60 + h * 60 + m - 8 * 60; // minutes after T0 (Monday 08:00)
    await writeEvents(
      stack.prisma,
      stubEvents([
        message('E', day(10, 20), true, chat2),
        message('D', day(10, 0), false, chat2),
        message('B2', day(9, 10), true, chat2),
        message('A2', day(8, 30), false, chat2),
      ]),
    );
    const tuesday = 'from=2026-11-03T00:00:00Z&to=2026-11-04T00:00:00Z';
    const res = await until(
      () => api.get(`/analytics/messages?${tuesday}`),
      (r) => r.status === 200 && r.body.totals.outgoing === 2 && r.body.totals.incoming === 2,
      20_000,
      'the events counted',
    );
    expect(MessageMetricsResultSchema.parse(res.body)).toEqual(res.body);
    expect(res.body.business_hours).toBe(true);
    expect(res.body.totals.first_response_ms).toEqual({ median: near(600_000), p90: near(600_000), count: 1 });
    expect(res.body.totals.next_response_ms).toEqual({ median: near(1_200_000), p90: near(1_200_000), count: 1 });
    expect(res.body.series).toMatchObject([{ first_responses: 1, next_responses: 1, next_response_median_ms: near(1_200_000) }]);
    // the sample of Monday was written before the schedule: its wall-clock time stays until a rebuild
    expect((await api.get(`/analytics/messages?${period}`)).body.totals.first_response_ms).toEqual({
      median: near(180_000),
      p90: near(180_000),
      count: 1,
    });
    // the CSV's totals row carries both figures; another organization has no schedule
    const csv = await callApi(stack.baseUrl, 'GET', `/analytics/messages?${tuesday}`, token, undefined, { accept: 'text/csv' });
    const total = String(csv.body).split('\r\n')[2].split(',');
    expect(total).toEqual(['total', '1', '2', '2', '0', '1', total[6], total[6], '1', total[9], total[9]]);
    expect([Number(total[6]), Number(total[9])]).toEqual([near(600_000), near(1_200_000)]);
    expect(total[6]).toBe(String(res.body.totals.first_response_ms.median));
    expect((await other.get(`/analytics/messages?${tuesday}`)).body).toMatchObject({ business_hours: false, totals: { incoming: 0 } });
  }, 40_000);

  it('refuses bad periods, time zones, intervals and limits with the 422 envelope', async () => {
    expect422(await api.get('/analytics/messages?from=2026-11-03T00:00:00Z&to=2026-11-02T00:00:00Z'), 'to', /after from/);
    expect422(await api.get('/analytics/messages?from=2025-01-01T00:00:00Z&to=2026-11-02T00:00:00Z'), 'to', /366 days/);
    expect422(await api.get(`/analytics/messages?${period}&tz=Mars/Olympus`), 'tz');
    expect422(await api.get(`/analytics/messages?${period}&tz=%2B01:00`), 'tz');
    expect422(await api.get(`/analytics/messages?${period}&interval=week`), 'interval');
    expect422(await api.get('/analytics/messages?from=yesterday&to=2026-11-02T00:00:00Z'), 'from');
    expect422(await api.get('/analytics/messages'), 'from');
    expect422(await api.get('/analytics/now?limit=0'), 'limit');
    expect422(await api.get('/analytics/now?limit=1001'), 'limit');
    const scoped = client(stack.baseUrl, (await createToken(stack.prisma, orgId, { phoneIds: ['phone-other'] })).token);
    expect404(await scoped.get(`/analytics/messages?${period}&phone_id=${phoneId}`));
    const noToken = await fetch(`${stack.baseUrl}/v1/analytics/now`);
    expect(noToken.status).toBe(401);
    expectEnvelope(await noToken.json(), 'UNAUTHORIZED_ERROR', 401);
  });
});

/**
 * The real path with a member (issue 34 with issue 18's reach): customer messages delivered on the
 * sandbox network are ingested by chats, announced as message.created and counted by analytics; Lea,
 * a member limited to label VIP, sees the figures and the waiting chats of chat A (VIP) only, the
 * owner's token those of both chats. Gateway, chats, phones, members, inbox and analytics as processes.
 */
describe('analytics for a member, from real ingestion', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let token: string;
  let lea: ConsoleSession;
  let phone: string;
  const [alice, bob] = [randomDigits(), randomDigits()];
  const [chatA, chatB] = [`${alice}@c.us`, `${bob}@c.us`];

  beforeAll(async () => {
    stack = await startStack({ SESSION_SCAN_MS: '200' }, { services: ['phones', 'members', 'inbox', 'analytics'] });
    const org = await createOrg(stack.prisma);
    token = (await createToken(stack.prisma, org.id)).token;
    api = client(stack.baseUrl, token);
    ({ phoneId: phone } = await connectedSandboxPhone(api));
    for (const [contact, body] of [
      [alice, 'a question'],
      [bob, 'another question'],
    ]) {
      expect((await api.post('/sandbox/messages', { chat_id: contact, body }, { 'x-phone': phone })).status).toBeLessThan(300);
    }
    await until(
      () => api.get('/analytics/now'),
      (r) => r.status === 200 && r.body.waiting.count === 2,
      20_000,
      'both chats waiting',
    );
    expect((await api.patch('/chats/labels', { labels: 'VIP', chat_ids: [chatA] })).status).toBe(204);
    lea = await joinByInvitation(
      stack.baseUrl,
      api,
      { emails: ['lea@example.com'], role: 'member', orgPhones: [phone], labels: ['VIP'] },
      'correct horse battery',
    );
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  it('counts ingested messages, and a member sees only the chats within reach', async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const everyone = await api.get(`/analytics/messages?from=${from}&to=${to}`);
    expect(everyone.status).toBe(200);
    expect(everyone.body.totals).toMatchObject({ active_chats: 2, incoming: 2, outgoing: 0 });
    const hers = await lea.call('GET', `/analytics/messages?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
    expect(hers.status).toBe(200);
    expect(hers.body.totals).toMatchObject({ active_chats: 1, incoming: 1, outgoing: 0 });
    const now = await lea.call('GET', '/analytics/now');
    expect(now.status).toBe(200);
    expect(now.body.waiting.chats.map((c: { chat_id: string }) => c.chat_id)).toEqual([chatA]);
    expect(now.body.waiting.count).toBe(1);
    expect((await api.get('/analytics/now')).body.waiting.chats.map((c: { chat_id: string }) => c.chat_id).sort()).toEqual(
      [chatA, chatB].sort(),
    );
  });

  it('counts unread chats through the chats service: per reach and read marks; another organization none', async () => {
    const unread = async (call: () => Promise<{ status: number; body: any }>) => {
      const r = await call();
      expect(r.status).toBe(200);
      return r.body.unread_chats as number;
    };
    // the customers' messages arrived live: both chats unread on the phone; Lea reaches chat A only
    expect(await unread(() => api.get('/analytics/now'))).toBe(2);
    expect(await unread(() => api.get(`/analytics/now?phone_id=${phone}`))).toBe(2);
    expect(await unread(() => lea.call('GET', '/analytics/now'))).toBe(1);
    expect((await api.get('/analytics/now?lists=waiting')).body.unread_chats).toBeNull();
    expect(await unread(() => api.get('/analytics/now?lists=unread_chats'))).toBe(2);
    // Lea opens chat A: read for her (her mark), still unread on the phone for the token (decision 0091)
    expect((await lea.call('POST', `/chats/${encodeURIComponent(chatA)}/read`)).status).toBe(200);
    expect(await unread(() => lea.call('GET', '/analytics/now'))).toBe(0);
    expect(await unread(() => api.get('/analytics/now'))).toBe(2);
    // the token reads chat B (the phone's count to 0): one chat left unread for it
    expect((await api.post(`/chats/${encodeURIComponent(chatB)}/read`, {})).status).toBe(200);
    expect(await unread(() => api.get('/analytics/now'))).toBe(1);
    // another organization's token: none of ours
    const other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    expect(await unread(() => other.get('/analytics/now'))).toBe(0);
    expect(RightNowResultSchema.parse((await api.get('/analytics/now')).body).unread_chats).toBe(1);
  }, 60_000);

  it("gives message figures by label, with a member's reach; a bad label is the 422 envelope", async () => {
    const from = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    const to = encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString());
    const period = `from=${from}&to=${to}`;
    const totals = async (call: () => Promise<{ status: number; body: any }>) => {
      const r = await call();
      expect(r.status).toBe(200);
      expect(MessageMetricsResultSchema.parse(r.body)).toEqual(r.body);
      return r.body.totals;
    };
    expect(await totals(() => api.get(`/analytics/messages?${period}&label=vip`))).toMatchObject({ active_chats: 1, incoming: 1 });
    expect(await totals(() => api.get(`/analytics/messages?${period}&label=VIP`))).toMatchObject({ active_chats: 1, incoming: 1 });
    expect(await totals(() => api.get(`/analytics/messages?${period}&label=nobody-has-it`))).toMatchObject({
      active_chats: 0,
      incoming: 0,
    });
    expect(await totals(() => lea.call('GET', `/analytics/messages?${period}&label=vip`))).toMatchObject({ active_chats: 1, incoming: 1 });
    // label Billing on chat B: the token counts it, Lea (VIP only) does not reach it
    expect((await api.patch('/chats/labels', { labels: 'Billing', chat_ids: [chatB] })).status).toBe(204);
    expect(await totals(() => api.get(`/analytics/messages?${period}&label=billing`))).toMatchObject({ active_chats: 1, incoming: 1 });
    expect(await totals(() => lea.call('GET', `/analytics/messages?${period}&label=billing`))).toMatchObject({
      active_chats: 0,
      incoming: 0,
    });
    // the CSV honours it
    const csv = await callApi(stack.baseUrl, 'GET', `/analytics/messages?${period}&label=vip`, token, undefined, { accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(
      String(csv.body)
        .split('\r\n')
        .find((l) => l.startsWith('total,')),
    ).toMatch(/^total,1,1,0,/);
    expect422(await api.get(`/analytics/messages?${period}&label=`), 'label', /must not be empty/);
    expect422(await api.get(`/analytics/messages?${period}&label=${'x'.repeat(101)}`), 'label', /at most 100/);
    // another organization's token: its own chats only (none labelled)
    const other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    expect(await totals(() => other.get(`/analytics/messages?${period}&label=vip`))).toMatchObject({ active_chats: 0, incoming: 0 });
  }, 60_000);
});
