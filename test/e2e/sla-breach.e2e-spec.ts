import { SlaBreachSchema } from '@mapi/contracts';
import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { Webhook } from 'standardwebhooks';
import { client, expect404, expect422, expectEnvelope, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';
const { startReceiver } = require('../../bench/webhooks/receiver.js');

/**
 * SLA escalation end to end (issue 34 item 2) on the sandbox network: an SLA policy "first response
 * within 4 minutes" where a minute lasts SLA_MINUTE_MS = 1 s (tests only; docs/services/analytics.md);
 * a customer's message waits past its deadline → sla.breached reaches the organization's webhook
 * subscription once (signed) and a workflow with trigger sla.breached raises a ticket on the chat; a
 * reply sent through the API in time cancels; the analytics service SIGKILLed while a deadline is
 * pending fires it exactly once after its restart; another organization reads and changes nothing.
 * Gateway, chats, phones, queue, inbox, automation, webhooks-dispatcher and analytics as processes.
 */
jest.setTimeout(120_000);

describe('SLA breaches', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let receiver: any;
  let phone: string;
  let orgId: string;
  let secret: string;
  let workflowId: string;
  let policyId: string;
  const tokens: Record<'api' | 'other' | 'scoped', string> = { api: '', other: '', scoped: '' };
  const MINUTES = 4;
  /** PUT, which the small client does not do. */
  const put = async (who: keyof typeof tokens, path: string, body: unknown) => {
    const res = await fetch(`${stack.baseUrl}/v1${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  const x = () => ({ 'x-phone': phone });
  const breachesFor = (chatId: string) =>
    receiver.requests.filter((r: any) => r.path === '/sla' && JSON.parse(r.body).data?.chat_id === chatId);
  const breachRows = (chatId: string) =>
    stack.prisma.$queryRaw<
      { n: number }[]
    >`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'sla.breached' AND payload->>'chat_id' = ${chatId}`.then((r) => r[0].n);
  const inbound = async (customer: string, body: string) => {
    const res = await api.post('/sandbox/messages', { chat_id: customer, body }, x());
    expect(res.status).toBeLessThan(300);
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    stack = await startStack(
      {
        SESSION_SCAN_MS: '200',
        QUEUE_PHONE_SCAN_MS: '200',
        WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        SLA_MINUTE_MS: '1000',
        SLA_FIRE_DELAY_MS: '200',
        SLA_ARM_GRACE_MS: '1000',
      },
      { services: ['phones', 'queue', 'inbox', 'automation', 'webhooks-dispatcher', 'analytics'] },
    );
    orgId = (await createOrg(stack.prisma)).id;
    tokens.api = (await createToken(stack.prisma, orgId)).token;
    tokens.other = (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token;
    api = client(stack.baseUrl, tokens.api);
    other = client(stack.baseUrl, tokens.other);
    ({ phoneId: phone } = await connectedSandboxPhone(api));
    const sub = await api.post('/webhooks', { hookUrl: `${receiver.url}/sla`, integrationName: ['sla.breached'] });
    expect(sub.status).toBe(201);
    secret = sub.body[0].secret;
    const wf = await api.post('/workflows/create', {
      name: 'Escalate breaches',
      trigger: 'sla.breached',
      trigger_metadata: { first_action_id: 'ticket' },
      actions: [
        { id: 'ticket', action_metadata: { type: 'create_ticket', metadata: { subject: 'SLA breached', status: 'open' } }, next: null },
      ],
    });
    expect(wf.status).toBe(201);
    workflowId = wf.body.id;
    const policy = await api.post('/analytics/sla-policies', { name: 'First reply', kind: 'first_response', minutes: MINUTES });
    expect(policy.status).toBe(201);
    policyId = policy.body.policy.policy_id;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  }, 60_000);

  it('a message waiting past its deadline: sla.breached reaches the webhook once, and the workflow raises a ticket', async () => {
    const customer = randomDigits();
    const chat = `${customer}@c.us`;
    const sentAt = Date.now();
    await inbound(customer, 'hello, anyone there?');
    await until(
      () => stack.prisma.analyticsSlaTimer.findMany({ where: { org_id: orgId, chat_id: chat } }),
      (rows) => rows.length === 1,
      10_000,
      'the wait armed (a policy applies from the second it was created in)',
    );
    const [delivery] = await until(
      async () => breachesFor(chat),
      (l) => l.length >= 1,
      30_000,
      'sla.breached delivered',
    );
    const body = new Webhook(secret).verify(delivery.body, delivery.headers) as any;
    expect(body).toMatchObject({ event_type: 'sla.breached', org_id: orgId, phone_id: phone });
    expect(SlaBreachSchema.parse(body.data)).toEqual(body.data);
    expect(body.data).toMatchObject({
      policy_id: policyId,
      kind: 'first_response',
      minutes: MINUTES,
      chat_id: chat,
      business_hours: false,
    });
    expect(Date.parse(body.data.due_at) - Date.parse(body.data.waiting_since)).toBe(MINUTES * 1000);
    // the wait starts at the message's own (whole-second) timestamp, and nothing is delivered before its deadline
    expect(Date.parse(body.data.waiting_since)).toBeGreaterThanOrEqual(Math.floor(sentAt / 1000) * 1000);
    expect(delivery.at).toBeGreaterThanOrEqual(Date.parse(body.data.due_at));
    const run = await until(
      () => api.get(`/workflows/${workflowId}/runs`),
      (r) => r.body?.runs?.some((x: any) => x.status === 'completed' && x.steps?.[0]?.result?.ticket_details?.chat_id === chat),
      30_000,
      'the workflow raised a ticket',
    );
    const ticket = run.body.runs.find((r: any) => r.steps[0].result.ticket_details.chat_id === chat).steps[0].result.ticket_details;
    expect(ticket).toMatchObject({ subject: 'SLA breached', status: 'open' });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(breachesFor(chat)).toHaveLength(1);
    expect(await breachRows(chat)).toBe(1);
  });

  it('a reply sent through the API before the deadline cancels it: nothing fires', async () => {
    const customer = randomDigits();
    const chat = `${customer}@c.us`;
    await inbound(customer, 'quick question');
    await until(
      () => stack.prisma.analyticsSlaTimer.findMany({ where: { org_id: orgId, chat_id: chat } }),
      (rows) => rows.length === 1,
      10_000,
      'the wait armed',
    );
    const sent = await api.post('/message/send', { chat_id: customer, message: 'on it!' }, x());
    expect(sent.status).toBeLessThan(300);
    const [row] = await until(
      () => stack.prisma.analyticsSlaTimer.findMany({ where: { org_id: orgId, chat_id: chat } }),
      (rows) => rows[0]?.state !== 'pending',
      10_000,
      'the wait answered',
    );
    expect(row.state).toBe('cancelled');
    await new Promise((r) => setTimeout(r, MINUTES * 1000 + 1_500));
    expect(await breachRows(chat)).toBe(0);
    expect(breachesFor(chat)).toHaveLength(0);
  });

  it('the analytics service SIGKILLed while a deadline is pending fires it exactly once after its restart', async () => {
    const customer = randomDigits();
    const chat = `${customer}@c.us`;
    await inbound(customer, 'still there?');
    await until(
      () => stack.prisma.analyticsSlaTimer.findMany({ where: { org_id: orgId, chat_id: chat, state: 'pending' } }),
      (rows) => rows.length === 1,
      10_000,
      'the wait armed',
    );
    await stack.apps.analytics.kill();
    await new Promise((r) => setTimeout(r, MINUTES * 1000 + 500)); // the deadline passes while no analytics runs
    expect(await breachRows(chat)).toBe(0);
    await stack.startService('analytics');
    await until(
      async () => breachesFor(chat),
      (l) => l.length >= 1,
      30_000,
      'sla.breached after the restart',
    );
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await breachRows(chat)).toBe(1);
    expect(breachesFor(chat)).toHaveLength(1);
    const [row] = await stack.prisma.analyticsSlaTimer.findMany({ where: { org_id: orgId, chat_id: chat } });
    expect(row.state).toBe('breached');
  });

  it('another organization cannot read or change the policies or the schedule; bad input is the 422 envelope', async () => {
    expect((await other.get('/analytics/sla-policies')).body).toEqual({ policies: [] });
    expect404(await other.get(`/analytics/sla-policies/${policyId}`));
    expect404(await other.patch(`/analytics/sla-policies/${policyId}`, { minutes: 1 }));
    expect404(await other.delete(`/analytics/sla-policies/${policyId}`));
    const week = { time_zone: 'Europe/Paris', weekly: { monday: [{ start: '09:00', end: '17:00' }] } };
    expect((await put('api', '/analytics/business-hours', week)).status).toBe(200);
    expect((await other.get('/analytics/business-hours')).body).toEqual({ business_hours: null });
    expect((await other.delete('/analytics/business-hours')).status).toBe(200);
    expect((await api.get('/analytics/business-hours')).body.business_hours).toMatchObject({ time_zone: 'Europe/Paris' });
    expect((await api.get(`/analytics/sla-policies/${policyId}`)).body.policy).toMatchObject({ minutes: MINUTES });
    expect((await api.delete('/analytics/business-hours')).body).toEqual({ business_hours: null });
    expect422(await put('api', '/analytics/business-hours', { ...week, time_zone: 'Mars/Olympus' }), 'body.time_zone');
    expect422(await api.post('/analytics/sla-policies', { name: 'x', kind: 'resolution', minutes: 5 }), 'body.kind');
    expect422(await api.get('/analytics/sla-policies/not-a-uuid'), 'policy_id');
    tokens.scoped = (await createToken(stack.prisma, orgId, { phoneIds: [phone] })).token;
    const forbidden = await put('scoped', '/analytics/business-hours', week);
    expect(forbidden.status).toBe(403);
    expectEnvelope(forbidden.body, 'FORBIDDEN_ERROR', 403);
  });
});
