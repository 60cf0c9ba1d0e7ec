import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AI_AGENT_OFF_NO_MODEL, AiAgentStateSchema, WorkflowRunSchema, type WorkflowRun } from '@mapi/contracts';
import { createOrg, createToken, randomDigits, startChatModelServer, type ChatModelServer } from '@mapi/testing';
import { client, expect422, expectEnvelope, until, type Answer } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * The AI agent end to end (issue 19, items 3 and 5): a customer writes on the sandbox network, the
 * agent (ai_prompt) answers from the organization's active FAQ through a small OpenAI-compatible
 * server started here (the model is the outer boundary) — its answer reaching the network once and the
 * run log citing the FAQ — and a question it cannot answer opens a ticket and labels the chat. The
 * per-phone switch off → no reply, recorded as skipped; another organization can neither read nor
 * change the switch; the model erroring or timing out fails the step with a clear error and sends
 * nothing; with no model configured the run log says the agent is off. gateway, chats, phones, queue,
 * inbox, knowledge-base (+ embedding worker, offline embedder) and automation run as processes.
 */
describe('automation: the AI agent', () => {
  let stack: Stack;
  let model: ChatModelServer;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let storageRoot: string;
  const KEY = 'sk-e2e-agent-key';
  const w: Record<string, any> = {};
  const HOURS = 'We are open from 9 am to 5 pm, Monday to Friday.';
  const DELIVERY = 'Delivery takes 2 to 4 working days within the country.';
  const GIFT = 'Yes, gift cards from 10 to 200 euros.';

  const sentBy = (chat: string) => stack.prisma.sandboxMessage.findMany({ where: { phone_id: w.phone, chat_id: chat, from_me: true } });
  /** A new customer writes; the agent workflow's run for that message, once it has ended. */
  const customerWrites = async (body: string): Promise<{ run: WorkflowRun; chat: string }> => {
    const customer = randomDigits();
    const chat = `${customer}@c.us`;
    const inbound = await api.post('/sandbox/messages', { chat_id: customer, body }, { 'x-phone': w.phone });
    expect(inbound.status).toBeLessThan(300);
    const runs = await until(
      () => api.get(`/workflows/${w.agent}/runs?limit=50`),
      (r) => r.body?.runs?.some((x: any) => x.chat_id === chat && x.status !== 'running'),
      30_000,
      `the agent's run for "${body}"`,
    );
    return { run: WorkflowRunSchema.parse(runs.body.runs.find((x: any) => x.chat_id === chat)), chat };
  };

  beforeAll(async () => {
    model = await startChatModelServer();
    storageRoot = mkdtempSync(join(tmpdir(), 'mapi-agent-'));
    stack = await startStack(
      {
        SESSION_SCAN_MS: '200',
        QUEUE_PHONE_SCAN_MS: '200',
        MEDIA_STORAGE_ROOT: storageRoot,
        AI_AGENT_BASE_URL: model.baseUrl,
        AI_AGENT_MODEL: 'tiny-faq',
        AI_AGENT_API_KEY: KEY,
        AI_AGENT_TIMEOUT_MS: '1500',
        // a failing model: one retry (after 1 s), then the step fails
        AUTOMATION_STEP_MAX_ATTEMPTS: '2',
      },
      { services: ['phones', 'queue', 'inbox'] },
    );
    [w.automation] = await Promise.all(['automation', 'knowledge-base', 'embedding-worker'].map((app) => stack.startService(app)));
    w.org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id)).token);
    const otherOrg = await createOrg(stack.prisma);
    other = client(stack.baseUrl, (await createToken(stack.prisma, otherOrg.id)).token);
    ({ phoneId: w.phone } = await connectedSandboxPhone(api));
    ({ phoneId: w.otherPhone } = await connectedSandboxPhone(other));
    const faq = async (question: string, answer: string, is_active = true) => {
      const res = await api.post('/knowledge-base/faq/create', { question, answer, is_active });
      if (res.status !== 200) throw new Error(`faq: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      // searchable once embedded (the worker, offline embedder)
      await until(
        () => api.get(`/knowledge-base/faq/${res.body.context_id}`),
        (r) => Boolean(r.body?.embedding),
        15_000,
        'embedded',
      );
      return res.body.context_id as string;
    };
    w.hours = await faq('What are your opening hours?', HOURS);
    w.delivery = await faq('How long does delivery take?', DELIVERY);
    w.gift = await faq('Do you sell gift cards?', GIFT, false);
    // another organization's FAQ answering the same question: never retrieved for this one
    const foreign = await other.post('/knowledge-base/faq/create', {
      question: 'Do you sell gift cards?',
      answer: 'Foreign answer',
      is_active: true,
    });
    expect(foreign.status).toBe(200);
    const created = await api.post('/workflows/create', {
      name: 'FAQ agent',
      trigger: 'message.created',
      trigger_metadata: { org_phones: [], first_action_id: 'agent' },
      actions: [
        {
          id: 'agent',
          action_metadata: {
            type: 'ai_prompt',
            metadata: {
              query: 'Sign as the Acme team.',
              body: '',
              agent: { handover: { ticket: { subject: 'The agent could not answer', priority: '2' }, labels: ['needs-human'] } },
            },
          },
          next: null,
        },
      ],
    });
    expect(created.status).toBe(201);
    w.agent = created.body.id;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await model?.stop();
    if (storageRoot) rmSync(storageRoot, { recursive: true, force: true });
  }, 60_000);

  it('an ai_prompt without its agent settings, or with bad ones, is 422 naming the field', async () => {
    const ai = (metadata: unknown) => ({
      name: 'x',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'a' },
      actions: [{ id: 'a', action_metadata: { type: 'ai_prompt', metadata }, next: null }],
    });
    expect422(
      await api.post('/workflows/create', ai({ query: 'Summarise', body: '{{message.body}}' })),
      'body.actions.0.action_metadata.metadata.agent',
      /knowledge-base AI agent/,
    );
    expect422(
      await api.post('/workflows/create', ai({ agent: { min_score: 3 } })),
      'body.actions.0.action_metadata.metadata.agent.min_score',
      /at most 1/,
    );
    expect422(
      await api.patch(`/workflows/${w.agent}`, {
        actions: [
          {
            id: 'agent',
            action_metadata: { type: 'ai_prompt', metadata: { agent: { handover: { ticket: { assignee: 'x' } } } } },
            next: null,
          },
        ],
      }),
      'body.actions.0.action_metadata.metadata.agent.handover.ticket.assignee',
    );
  });

  it('GET /automation/agent: on by default, with the model named; x-phone required; PATCH checks its body', async () => {
    const res = await api.get('/automation/agent', { 'x-phone': w.phone });
    expect(res.status).toBe(200);
    expect(AiAgentStateSchema.parse(res.body)).toEqual({
      phone_id: w.phone,
      enabled: true,
      model: 'tiny-faq',
      model_configured: true,
      active: true,
      reason: null,
      updated_at: null,
      updated_by: null,
    });
    expect422(await api.get('/automation/agent'), 'x-phone');
    const bad = await api.patch('/automation/agent', { enabled: 'yes' }, { 'x-phone': w.phone });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body.fields)).toMatch(/enabled must be true or false/);
  });

  it('a customer asks what the FAQ answers: the answer reaches the network once, and the run log cites the FAQ', async () => {
    const { run, chat } = await customerWrites('Hi! What are your opening hours?');
    expect({ status: run.status, reason: run.reason }).toEqual({ status: 'completed', reason: null });
    const [step] = run.steps;
    expect(step).toMatchObject({ action_id: 'agent', action_type: 'ai_prompt', status: 'completed', error: null });
    expect(step.result).toMatchObject({
      outcome: 'answered',
      input: 'Hi! What are your opening hours?',
      output: HOURS,
      query: 'Sign as the Acme team.',
      model: 'tiny-faq',
      cited: [{ context_id: w.hours, type: 'faq', question: 'What are your opening hours?', score: expect.any(Number) }],
      message_details: { queue_id: expect.any(String) },
      chat_id: chat,
    });
    const retrieved = (step.result as any).retrieved.map((r: any) => r.context_id);
    expect(retrieved).not.toContain(w.gift);
    await until(
      () => sentBy(chat),
      (m) => m.length > 0,
      15_000,
      'the answer on the network',
    );
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await sentBy(chat)).map((m) => m.body)).toEqual([HOURS]);
    // the model was asked with the key, the organization's instructions and only the close entries
    const asked = model.requests[model.requests.length - 1];
    expect(asked.headers.authorization).toBe(`Bearer ${KEY}`);
    const system = asked.body.messages[0].content;
    expect(system).toContain('Sign as the Acme team.');
    expect(system).toContain(HOURS);
    expect(system).not.toContain(GIFT);
    expect(asked.body.messages[1]).toEqual({ role: 'user', content: 'Hi! What are your opening hours?' });
  }, 60_000);

  it('a question nothing is close enough to opens a ticket and labels the chat; no reply', async () => {
    const { run, chat } = await customerWrites('Can I pay with bitcoin?');
    expect(run.status).toBe('completed');
    const result = run.steps[0].result as any;
    expect(result).toMatchObject({
      outcome: 'handed_over',
      output: null,
      handover: 'ticket+labels',
      cited: [],
      chat_details: { labels: ['needs-human'] },
    });
    expect(result.reason).toMatch(/^nothing in the knowledge base is close enough \(the best scored [-\d.]+; the threshold is 0\.35\)$/);
    const ticket = await api.get(`/tickets/${result.ticket_details.ticket_id}`);
    expect(ticket.status).toBe(200);
    expect(ticket.body.ticket).toMatchObject({ subject: 'The agent could not answer', priority: 2, chat_id: chat, raised_by: w.agent });
    const labels = (await api.get('/labels?type=chat')).body.labels;
    const needsHuman = labels.find((l: any) => l.name === 'needs-human');
    expect((await api.get(`/chats/${chat}`)).body.label_ids).toEqual({ [needsHuman.label_id]: true });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await sentBy(chat)).toEqual([]);
  }, 60_000);

  it('a question the model says the entries do not answer is handed over too; an inactive FAQ is never used', async () => {
    const before = model.requests.length;
    const free = await customerWrites('Is delivery free?');
    const r1 = free.run.steps[0].result as any;
    expect(r1).toMatchObject({
      outcome: 'handed_over',
      reason: 'the model said the knowledge base does not answer the message',
      model_output: 'CANNOT_ANSWER',
    });
    expect(r1.retrieved.map((x: any) => x.context_id)).toContain(w.delivery);
    expect(r1.ticket_details.ticket_id).toEqual(expect.any(String));
    expect(model.requests.length).toBe(before + 1);
    const gift = await customerWrites('Do you sell gift cards?');
    const r2 = gift.run.steps[0].result as any;
    expect(r2.outcome).toBe('handed_over');
    expect(r2.retrieved.map((x: any) => x.context_id)).not.toContain(w.gift);
    expect(JSON.stringify(r2)).not.toContain('Foreign answer');
    await new Promise((r) => setTimeout(r, 1_000));
    expect([...(await sentBy(free.chat)), ...(await sentBy(gift.chat))]).toEqual([]);
  }, 60_000);

  it("another organization can neither read nor change this phone's switch", async () => {
    const denied = (res: Answer) => {
      expect(res.status).toBe(401);
      expectEnvelope(res.body, 'UNAUTHORIZED_ERROR', 401);
    };
    denied(await other.get('/automation/agent', { 'x-phone': w.phone }));
    denied(await other.patch('/automation/agent', { enabled: false }, { 'x-phone': w.phone }));
    denied(await api.patch('/automation/agent', { enabled: false }, { 'x-phone': w.otherPhone }));
    expect((await api.get('/automation/agent', { 'x-phone': w.phone })).body).toMatchObject({ enabled: true, updated_by: null });
    expect((await other.get('/automation/agent', { 'x-phone': w.otherPhone })).body).toMatchObject({
      phone_id: w.otherPhone,
      enabled: true,
      updated_by: null,
    });
    expect(await stack.prisma.automationAgentSwitch.count()).toBe(0);
  });

  it('switched off for the phone: the agent does not answer, the step is skipped with the reason; on again, it answers', async () => {
    const off = await api.patch('/automation/agent', { enabled: false }, { 'x-phone': w.phone });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({
      phone_id: w.phone,
      enabled: false,
      active: false,
      reason: `the AI agent is switched off for phone ${w.phone}`,
      updated_by: expect.any(String),
    });
    expect((await api.get('/automation/agent', { 'x-phone': w.phone })).body).toMatchObject({ enabled: false, active: false });
    // the other organization's phone keeps its own switch
    expect((await other.get('/automation/agent', { 'x-phone': w.otherPhone })).body.enabled).toBe(true);
    const before = model.requests.length;
    const { run, chat } = await customerWrites('What are your opening hours?');
    expect({ status: run.status, reason: run.reason }).toEqual({
      status: 'completed',
      reason: `the AI agent is switched off for phone ${w.phone}`,
    });
    expect(run.steps[0]).toMatchObject({
      status: 'skipped',
      error: `the AI agent is switched off for phone ${w.phone}`,
      result: { outcome: 'skipped', output: null },
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await sentBy(chat)).toEqual([]);
    expect(model.requests.length).toBe(before);
    expect((await api.patch('/automation/agent', { enabled: true }, { 'x-phone': w.phone })).body).toMatchObject({
      enabled: true,
      active: true,
      reason: null,
    });
    const again = await customerWrites('What are your opening hours?');
    expect(again.run.steps[0]).toMatchObject({ status: 'completed', result: { outcome: 'answered', output: HOURS } });
    await until(
      () => sentBy(again.chat),
      (m) => m.length > 0,
      15_000,
      'the answer on the network',
    );
  }, 60_000);

  it.each([
    ['error', /answered 500: \{"error":\{"message":"model crashed"\}\}/],
    ['hang', /did not answer within 1500 ms/],
  ] as const)(
    'the model server %s: the step fails with a clear error after its retry, and nothing is sent',
    async (mode, error) => {
      model.mode = mode;
      try {
        const { run, chat } = await customerWrites('What are your opening hours?');
        expect(run.status).toBe('failed');
        expect(run.steps[0]).toMatchObject({ status: 'failed', attempts: 2 });
        expect(run.steps[0].error).toMatch(error);
        expect(run.steps[0].error).toContain(model.baseUrl);
        expect(run.steps[0].error).not.toContain(KEY);
        expect(run.reason).toMatch(error);
        await new Promise((r) => setTimeout(r, 1_000));
        expect(await sentBy(chat)).toEqual([]);
      } finally {
        model.mode = 'answer';
      }
    },
    60_000,
  );

  it('no model configured: the switch route and the run log say the agent is off', async () => {
    await w.automation.stop();
    await stack.startService('automation', { AI_AGENT_BASE_URL: '', AI_AGENT_MODEL: '' });
    const state = await api.get('/automation/agent', { 'x-phone': w.phone });
    expect(state.body).toMatchObject({ enabled: true, model: null, model_configured: false, active: false, reason: AI_AGENT_OFF_NO_MODEL });
    const before = model.requests.length;
    const { run, chat } = await customerWrites('What are your opening hours?');
    expect({ status: run.status, reason: run.reason }).toEqual({ status: 'failed', reason: AI_AGENT_OFF_NO_MODEL });
    expect(run.steps[0]).toMatchObject({ status: 'failed', attempts: 1, error: AI_AGENT_OFF_NO_MODEL });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await sentBy(chat)).toEqual([]);
    expect(model.requests.length).toBe(before);
  }, 90_000);
});
