import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MessageSchema } from '@mapi/contracts';
import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { Webhook } from 'standardwebhooks';
import { joinByInvitation, type ConsoleSession } from './support/console-session';
import { client, expect404, expect422, expectEnvelope, until, type Answer } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';
const { startReceiver } = require('../../bench/webhooks/receiver.js');

/** A fake OpenAI-compatible model (the outer boundary): flags a message holding "!!!" with a reason; or answers 500, or never. */
async function fakeModel() {
  const state = { mode: 'answer' as 'answer' | 'error' | 'hang', requests: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      if (state.mode === 'hang') return;
      if (state.mode === 'error') return void res.writeHead(500).end('{"error":{"message":"model crashed"}}');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { messages: { role: string; content: string }[] };
      const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
      const content = user.includes('!!!') ? '{"flag": true, "reason": "The customer is angry"}' : '{"flag": false}';
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    stop: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/**
 * Flagging end to end (issue 34 item 3) on the sandbox network: a keyword rule flags a customer's message →
 * message.flagged reaches the webhook once (signed, with the rule's reason); a reply through /message/send
 * unflags it (response_type message); a member unflags through PUT /message/{id}/flag; a model rule flags with
 * the model's reason (a fake OpenAI-compatible server); a model that errors or hangs loses none of the keyword
 * flags; the analytics service SIGKILLed while a waiting rule's job is pending flags once after its restart;
 * another organization reads and changes nothing. Gateway, chats, phones, queue, members, webhooks-dispatcher
 * and analytics as processes.
 */
jest.setTimeout(120_000);

describe('flagging', () => {
  let stack: Stack;
  let model: Awaited<ReturnType<typeof fakeModel>>;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let lea: ConsoleSession;
  let receiver: any;
  let phone: string;
  let orgId: string;
  let secret: string;
  let otherToken: string;
  let moodId: string;
  const x = () => ({ 'x-phone': phone });
  const put = async (token: string, path: string, body: unknown): Promise<Answer> => {
    const res = await fetch(`${stack.baseUrl}/v1${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  const deliveries = (type: string, messageId: string) =>
    receiver.requests.filter((r: any) => {
      const b = JSON.parse(r.body);
      return b.event_type === type && b.data?.message_id === messageId;
    });
  const flaggedRows = (messageId: string) =>
    stack.prisma.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM outbox_events WHERE type = 'message.flagged' AND payload->>'message_id' = ${messageId}`.then(
      (r) => r[0].n,
    );
  /** A customer's message through the sandbox network; answers the stored message once the chats service has it. */
  async function inbound(body: string) {
    const customer = randomDigits();
    expect((await api.post('/sandbox/messages', { chat_id: customer, body }, x())).status).toBeLessThan(300);
    const row = await until(
      () => stack.prisma.message.findFirst({ where: { org_id: orgId, chat_id: `${customer}@c.us`, body } }),
      (m) => m !== null,
      15_000,
      `the message "${body}" ingested`,
    );
    if (!row) throw new Error('not ingested');
    return { customer, id: row.message_id };
  }
  const message = (id: string) => stack.prisma.message.findFirstOrThrow({ where: { org_id: orgId, message_id: id } });
  const flagState = (id: string, want: boolean, label: string) =>
    until(
      () => message(id),
      (m) => Boolean(m.flag_status) === want,
      20_000,
      label,
    );

  beforeAll(async () => {
    receiver = await startReceiver();
    model = await fakeModel();
    stack = await startStack(
      {
        SESSION_SCAN_MS: '200',
        QUEUE_PHONE_SCAN_MS: '200',
        WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
        WEBHOOK_POLL_INTERVAL_MS: '50',
        AI_AGENT_BASE_URL: model.url,
        AI_AGENT_MODEL: 'fake-flagger',
        FLAG_MODEL_TIMEOUT_MS: '800',
        FLAG_MODEL_ATTEMPTS: '2',
        FLAG_MINUTE_MS: '1000',
        FLAG_IDLE_POLL_MS: '1000',
      },
      { services: ['phones', 'queue', 'members', 'webhooks-dispatcher', 'analytics'] },
    );
    orgId = (await createOrg(stack.prisma)).id;
    api = client(stack.baseUrl, (await createToken(stack.prisma, orgId)).token);
    otherToken = (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token;
    other = client(stack.baseUrl, otherToken);
    ({ phoneId: phone } = await connectedSandboxPhone(api));
    const sub = await api.post('/webhooks', {
      hookUrl: `${receiver.url}/flags`,
      integrationName: ['message.flagged', 'message.unflagged'],
    });
    expect(sub.status).toBe(201);
    secret = sub.body[0].secret;
    for (const rule of [
      { name: 'Refunds', kind: 'keyword', keywords: ['refund'] },
      { name: 'Mood', kind: 'model', prompt: 'the customer is angry or insulting' },
    ]) {
      const made = await api.post('/analytics/flag-rules', rule);
      expect(made.status).toBe(201);
      expect(made.body.rule).toMatchObject({ ...rule, enabled: true, active: true });
      if (rule.kind === 'model') moodId = made.body.rule.rule_id;
    }
    lea = await joinByInvitation(
      stack.baseUrl,
      api,
      { emails: ['lea@example.com'], role: 'member', orgPhones: [phone] },
      'correct horse battery',
    );
    await new Promise((r) => setTimeout(r, 1_000)); // messages from the rules' second on are flagged
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await model?.stop();
  }, 60_000);

  it('a keyword flags the message: message.flagged reaches the webhook once; a reply unflags it', async () => {
    const m = await inbound('Hello, I would like a REFUND please');
    await flagState(m.id, true, 'flagged by the keyword');
    const [delivery] = await until(
      async () => deliveries('message.flagged', m.id),
      (l) => l.length >= 1,
      20_000,
      'message.flagged delivered',
    );
    const body = new Webhook(secret).verify(delivery.body, delivery.headers) as any;
    expect(body).toMatchObject({ event_type: 'message.flagged', org_id: orgId, phone_id: phone });
    expect(MessageSchema.parse(body.data)).toEqual(body.data);
    expect(body.data).toMatchObject({
      message_id: m.id,
      flag_status: true,
      flag_metadata: { status: true, flagged_by: 'rule:Refunds', reason: 'Refunds: the message says "refund"' },
    });
    const sent = await api.post('/message/send', { chat_id: m.customer, message: 'Sure, done.' }, x());
    expect(sent.status).toBeLessThan(300);
    const after = await flagState(m.id, false, 'unflagged by the reply');
    expect(after.flag_metadata).toMatchObject({
      status: false,
      response_type: 'message',
      response_phone: phone,
      reason: expect.any(String),
    });
    await until(
      async () => deliveries('message.unflagged', m.id),
      (l) => l.length >= 1,
      20_000,
      'message.unflagged delivered',
    );
    await new Promise((r) => setTimeout(r, 1_500));
    expect(deliveries('message.flagged', m.id)).toHaveLength(1);
    expect(await flaggedRows(m.id)).toBe(1);
  });

  it('a member unflags through PUT /message/{id}/flag; no rule flags it again; another organization gets 404', async () => {
    const m = await inbound('refund refund');
    await flagState(m.id, true, 'flagged');
    expect404(await put(otherToken, `/message/${m.id}/flag`, { flag: false }));
    const res = await lea.call('PUT', `/message/${m.id}/flag`, { flag: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message_id: m.id,
      flag_status: false,
      flag_metadata: { response_type: 'manual', response_email: 'lea@example.com' },
    });
    expect422(await lea.call('PUT', `/message/${m.id}/flag`, { flag: 'no' }), 'body.flag');
    await until(
      async () => deliveries('message.unflagged', m.id),
      (l) => l.length >= 1,
      20_000,
      'message.unflagged delivered',
    );
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await message(m.id)).flag_status).toBe(false);
    expect(await flaggedRows(m.id)).toBe(1);
  });

  it("the model flags with its reason and leaves the rest; a model that errors or hangs loses none of the keyword's flags", async () => {
    const angry = await inbound('Third time I write!!! Nobody answers');
    const calm = await inbound('thanks, all good');
    const flagged = await flagState(angry.id, true, 'flagged by the model');
    expect(flagged.flag_metadata).toMatchObject({ flagged_by: 'model:fake-flagger', reason: 'Mood: The customer is angry' });
    await until(
      () => stack.prisma.analyticsFlagJob.findMany({ where: { org_id: orgId, message_id: calm.id } }),
      (jobs) => jobs.length === 1 && jobs[0].state === 'done',
      20_000,
      'the model said no',
    );
    expect((await message(calm.id)).flag_status).not.toBe(true);
    for (const mode of ['error', 'hang'] as const) {
      model.state.mode = mode;
      const both = await inbound(`refund now!!! (${mode})`);
      const byRule = await flagState(both.id, true, `flagged by the keyword while the model is ${mode}`);
      expect(byRule.flag_metadata).toMatchObject({ flagged_by: 'rule:Refunds' });
      const [job] = await until(
        () => stack.prisma.analyticsFlagJob.findMany({ where: { org_id: orgId, message_id: both.id, rule_id: moodId } }),
        (jobs) => jobs.length === 1 && jobs[0].state === 'failed',
        30_000,
        `the model job given up (${mode})`,
      );
      expect(job).toMatchObject({ attempts: 2 });
      expect(await flaggedRows(both.id)).toBe(1);
    }
    model.state.mode = 'answer';
  });

  it('the analytics service SIGKILLed while a waiting rule is pending flags the message once after its restart', async () => {
    const waiting = await api.post('/analytics/flag-rules', { name: 'Waiting', kind: 'waiting', minutes: 3 });
    expect(waiting.status).toBe(201);
    await new Promise((r) => setTimeout(r, 1_000));
    const m = await inbound('hello? is anyone there');
    await until(
      () => stack.prisma.analyticsFlagJob.findMany({ where: { org_id: orgId, message_id: m.id, state: 'pending' } }),
      (jobs) => jobs.length === 1,
      15_000,
      'the waiting job armed',
    );
    await stack.apps.analytics.kill();
    await new Promise((r) => setTimeout(r, 3_500)); // the wait passes while no analytics runs
    expect((await message(m.id)).flag_status).not.toBe(true);
    await stack.startService('analytics');
    const flagged = await flagState(m.id, true, 'flagged after the restart');
    expect(flagged.flag_metadata).toMatchObject({ flagged_by: 'rule:Waiting', reason: 'Waiting: no reply within 3 minutes' });
    await until(
      async () => deliveries('message.flagged', m.id),
      (l) => l.length >= 1,
      20_000,
      'message.flagged delivered',
    );
    await new Promise((r) => setTimeout(r, 2_000));
    expect(deliveries('message.flagged', m.id)).toHaveLength(1);
    expect(await flaggedRows(m.id)).toBe(1);
    expect((await api.delete(`/analytics/flag-rules/${waiting.body.rule.rule_id}`)).status).toBe(200);
  });

  it('another organization cannot read or change the rules; bad input is the 422 envelope', async () => {
    const { rules } = (await api.get('/analytics/flag-rules')).body;
    expect(rules.map((r: { name: string }) => r.name)).toEqual(['Refunds', 'Mood']);
    const id = rules[0].rule_id;
    expect((await other.get('/analytics/flag-rules')).body).toEqual({ rules: [] });
    expect404(await other.get(`/analytics/flag-rules/${id}`));
    expect404(await other.patch(`/analytics/flag-rules/${id}`, { enabled: false }));
    expect404(await other.delete(`/analytics/flag-rules/${id}`));
    expect((await api.get(`/analytics/flag-rules/${id}`)).body.rule).toMatchObject({ enabled: true, keywords: ['refund'] });
    expect422(await api.post('/analytics/flag-rules', { name: 'x', kind: 'keyword' }), 'body.keywords');
    expect422(await api.post('/analytics/flag-rules', { name: 'x', kind: 'sentiment' }), 'body.kind');
    expect422(await api.patch(`/analytics/flag-rules/${id}`, { minutes: 5 }), 'minutes');
    expect422(await api.get('/analytics/flag-rules/not-a-uuid'), 'rule_id');
    const scoped = client(stack.baseUrl, (await createToken(stack.prisma, orgId, { phoneIds: [phone] })).token);
    const forbidden = await scoped.post('/analytics/flag-rules', { name: 'x', kind: 'keyword', keywords: ['y'] });
    expect(forbidden.status).toBe(403);
    expectEnvelope(forbidden.body, 'FORBIDDEN_ERROR', 403);
  });
});
