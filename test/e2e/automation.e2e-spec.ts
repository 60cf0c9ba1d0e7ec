import { DryRunWorkflowResponse, ListRunsResponse, ListWorkflowsResponse, WorkflowRunSchema, WorkflowSchema } from '@mapi/contracts';
import { createOrg, createToken, randomDigits, registryPayload } from '@mapi/testing';
import { client, expect404, expect422, until } from './support/http';
import { priceBotWorkflow } from './support/price-bot';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * Workflows end to end (issue 19, first slice): the routes, and a customer message arriving on the
 * sandbox network that a workflow answers through the queue — the reply reaching the network exactly
 * once, the reply itself (from_me) starting no run — with gateway, chats, phones, queue, inbox and
 * automation as processes. Another organization's token sees and changes nothing.
 */
describe('automation: workflows', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  const w: Record<string, any> = {};
  const customer = randomDigits();
  const chat = `${customer}@c.us`;
  const REPLY = 'Thanks! Our price list is on its way.';
  const priceBot = () => priceBotWorkflow(REPLY, { label: 'Lead' });

  beforeAll(async () => {
    stack = await startStack(
      { SESSION_SCAN_MS: '200', QUEUE_PHONE_SCAN_MS: '200' },
      { services: ['phones', 'queue', 'inbox', 'automation'] },
    );
    w.org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id)).token);
    other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    ({ phoneId: w.phone } = await connectedSandboxPhone(api));
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  it('POST /workflows/create answers the workflow (WorkflowType), enabled by default', async () => {
    const res = await api.post('/workflows/create', { ...priceBot(), id: 'exported-id', org_id: 'someone-else', created_at: '2025-01-01' });
    expect(res.status).toBe(201);
    expect(WorkflowSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({
      org_id: w.org.id,
      name: 'Price bot',
      trigger: 'message.created',
      is_active: true,
      deleted_at: null,
      trigger_metadata: { first_action_id: 'asks-price' },
    });
    expect(res.body.id).not.toBe('exported-id');
    w.bot = res.body.id;
  });

  it.each([
    [
      {
        actions: [{ id: 'a', action_metadata: { type: 'send_message_to_chat', metadata: { message: 'x' } }, next: 'missing' }],
        trigger_metadata: { first_action_id: 'a' },
      },
      'body.actions.0.next',
      /no action has id missing/,
    ],
    [
      {
        actions: [{ id: 'a', action_metadata: { type: 'delay', metadata: { delay: '1 minutes' } }, next: 'a' }],
        trigger_metadata: { first_action_id: 'a' },
      },
      'body.actions.0.next',
      /cycle/,
    ],
    [
      {
        actions: [{ id: 'a', action_metadata: { type: 'ai_prompt', metadata: { query: 'q', body: 'b' } }, next: null }],
        trigger_metadata: { first_action_id: 'a' },
      },
      'body.actions.0.action_metadata.metadata.agent',
      /a free-form AI prompt is not supported here yet/,
    ],
    [{ trigger: 'ticket.due' }, 'body.trigger', /not supported here yet/],
    [{ trigger_metadata: { first_action_id: 'nope' } }, 'body.trigger_metadata.first_action_id', /no action has id nope/],
    [{ name: '' }, 'body.name', undefined],
  ])('a malformed definition is 422 naming the field (%#)', async (change, field, message) => {
    expect422(await api.post('/workflows/create', { ...priceBot(), ...change }), field, message);
  });

  it('GET /workflows lists them, paged; GET /workflows/{id} answers one', async () => {
    const second = await api.post('/workflows/create', { ...priceBot(), name: 'Second', is_active: false });
    expect(second.status).toBe(201);
    w.second = second.body.id;
    const list = await api.get('/workflows');
    expect(list.status).toBe(200);
    expect(ListWorkflowsResponse.parse(list.body)).toMatchObject({ from: 1, to: 2, count: 2 });
    expect(list.body.workflows.map((x: any) => x.id)).toEqual([w.second, w.bot]);
    const page = await api.get('/workflows?offset=1&limit=1');
    expect(page.body).toMatchObject({ from: 2, to: 2, count: 1 });
    expect(page.body.workflows[0].id).toBe(w.bot);
    expect422(await api.get('/workflows?limit=2001'), 'limit');
    const one = await api.get(`/workflows/${w.bot}`);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(w.bot);
    expect422(await api.get('/workflows/not-a-uuid'), 'workflow_id');
  });

  it('PATCH checks the definition that results, and enables / disables', async () => {
    expect422(
      await api.patch(`/workflows/${w.second}`, { trigger_metadata: { first_action_id: 'ghost' } }),
      'body.trigger_metadata.first_action_id',
    );
    const off = await api.patch(`/workflows/${w.second}`, { name: 'Renamed', is_active: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ name: 'Renamed', is_active: false });
    expect((await api.get(`/workflows/${w.second}`)).body.name).toBe('Renamed');
  });

  it('POST /workflows/{id}/dry-run walks the graph for a sample event, running nothing', async () => {
    const yes = await api.post(`/workflows/${w.bot}/dry-run`, {
      event: { data: { chat_id: chat, body: 'What is the PRICE?', from_me: false } },
    });
    expect(yes.status).toBe(200);
    expect(DryRunWorkflowResponse.parse(yes.body)).toEqual({
      triggered: true,
      reason: null,
      actions: [
        { action_id: 'asks-price', type: 'validate_action', outcome: 'condition_passed' },
        { action_id: 'reply', type: 'send_message_to_chat', outcome: 'would_run' },
        { action_id: 'label', type: 'add_chat_label', outcome: 'would_run' },
      ],
    });
    const no = await api.post(`/workflows/${w.bot}/dry-run`, { event: { data: { chat_id: chat, body: 'hello' } } });
    expect(no.body.actions).toEqual([{ action_id: 'asks-price', type: 'validate_action', outcome: 'condition_failed' }]);
    const own = await api.post(`/workflows/${w.bot}/dry-run`, { event: { data: { chat_id: chat, body: 'price', from_me: true } } });
    expect(own.body).toMatchObject({ triggered: false, actions: [] });
    expect(own.body.reason).toMatch(/from_me/);
    expect422(await api.post(`/workflows/${w.bot}/dry-run`, { event: {} }), 'body.event.data');
    expect((await api.get(`/workflows/${w.bot}/runs`)).body.count).toBe(0);
  });

  it('a customer message is answered through the queue: the reply reaches the network exactly once, and starts no run itself', async () => {
    const inbound = await api.post(
      '/sandbox/messages',
      { chat_id: customer, body: 'Hi, what is the price of the blue one?' },
      { 'x-phone': w.phone },
    );
    expect(inbound.status).toBeLessThan(300);
    const runs = await until(
      () => api.get(`/workflows/${w.bot}/runs`),
      (r) => r.body?.runs?.[0]?.status === 'completed',
      30_000,
      'run completed',
    );
    const run = ListRunsResponse.parse(runs.body).runs[0];
    expect(run).toMatchObject({ workflow_id: w.bot, event_type: 'message.created', chat_id: chat, phone_id: w.phone, status: 'completed' });
    expect(run.steps.map((s) => [s.action_id, s.status])).toEqual([
      ['asks-price', 'completed'],
      ['reply', 'completed'],
      ['label', 'completed'],
    ]);
    for (const s of run.steps) expect(s.duration_ms).toBeGreaterThanOrEqual(0);
    const sentToNetwork = () =>
      stack.prisma.sandboxMessage.count({ where: { phone_id: w.phone, chat_id: chat, from_me: true, body: REPLY } });
    await until(sentToNetwork, (n) => n > 0, 15_000, 'reply on the network');
    // the reply comes back as a message.created (from_me): the loop guard starts no run for it
    await until(
      () =>
        stack.prisma.outboxEvent.count({
          where: { org_id: w.org.id, type: 'message.created', payload: { path: ['from_me'], equals: true } },
        }),
      (n) => n > 0,
      15_000,
      'reply event',
    );
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await sentToNetwork()).toBe(1);
    expect((await api.get(`/workflows/${w.bot}/runs`)).body.count).toBe(1);
    const chatView = await api.get(`/chats/${chat}`);
    const labels = await api.get('/labels?type=chat');
    const lead = labels.body.labels.find((l: any) => l.name === 'lead');
    expect(chatView.body.label_ids).toEqual({ [lead.label_id]: true });
    const one = await api.get(`/workflows/runs/${run.run_id}`);
    expect(one.status).toBe(200);
    expect(WorkflowRunSchema.parse(one.body).run_id).toBe(run.run_id);
    const done = await stack.prisma.outboxEvent.findMany({ where: { org_id: w.org.id, type: 'workflow.run.completed' } });
    expect(done.map((e) => registryPayload(e))).toEqual([expect.objectContaining({ run_id: run.run_id, status: 'completed' })]);
    // a disabled workflow (second) started nothing
    expect((await api.get(`/workflows/${w.second}/runs`)).body.count).toBe(0);
  }, 60_000);

  it('tickets and labels: create_ticket quoting the message, remove_chat_label, close_ticket with its note', async () => {
    const res = await api.post('/workflows/create', {
      name: 'Refunds',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'is-refund' },
      actions: [
        {
          id: 'is-refund',
          action_metadata: {
            type: 'validate_action',
            metadata: {
              operator: 'OR',
              conditions: [{ id: 'c', variable_name: 'message.body', variable_type: 'string', condition: 'STARTS_WITH', value: 'refund' }],
            },
          },
          next: 'ticket',
        },
        {
          id: 'ticket',
          action_metadata: {
            type: 'create_ticket',
            metadata: {
              subject: 'Refund request',
              assignee: { round_robin: false, email: 'Desk@Example.com' },
              priority: '3',
              status: 'open',
              labels: ['refund'],
              due_in: '1 days',
            },
          },
          next: 'unlabel',
        },
        { id: 'unlabel', action_metadata: { type: 'remove_chat_label', metadata: { labels: ['LEAD'] } }, next: 'close' },
        {
          id: 'close',
          action_metadata: { type: 'close_ticket', metadata: { closing_note: 'Closed by the refunds workflow' } },
          next: null,
        },
      ],
    });
    expect(res.status).toBe(201);
    const inbound = await api.post('/sandbox/messages', { chat_id: customer, body: 'Refund please, it broke' }, { 'x-phone': w.phone });
    const runs = await until(
      () => api.get(`/workflows/${res.body.id}/runs`),
      (r) => ['completed', 'failed'].includes(r.body?.runs?.[0]?.status),
      30_000,
      'refund run ended',
    );
    const run = runs.body.runs[0];
    expect({ status: run.status, reason: run.reason }).toEqual({ status: 'completed', reason: null });
    const ticketId = run.steps.find((s: any) => s.action_id === 'ticket').result.ticket_details.ticket_id;
    const ticket = await api.get(`/tickets/${ticketId}`);
    expect(ticket.body.ticket).toMatchObject({
      subject: 'Refund request',
      assignee: 'desk@example.com',
      priority: 3,
      status: 'closed',
      ticket_labels: 'refund',
      chat_id: chat,
      quoted_message_id: inbound.body.message_id,
      raised_by: res.body.id,
    });
    expect(Date.parse(ticket.body.ticket.due_date) - Date.parse(run.started_at)).toBe(86_400_000);
    expect((await api.get(`/chats/${chat}`)).body.label_ids).toEqual({});
    const notes = await api.get(`/chats/${chat}/notes`);
    expect(notes.body.notes.map((n: any) => n.body)).toEqual(['Closed by the refunds workflow']);
    expect((await api.patch(`/workflows/${res.body.id}`, { is_active: false })).status).toBe(200);
  }, 60_000);

  it("another organization's token sees nothing of the workflows and changes nothing", async () => {
    const run = (await api.get(`/workflows/${w.bot}/runs`)).body.runs[0];
    expect((await other.get('/workflows')).body).toMatchObject({ count: 0, workflows: [] });
    expect404(await other.get(`/workflows/${w.bot}`));
    expect404(await other.patch(`/workflows/${w.bot}`, { is_active: false }));
    expect404(await other.post(`/workflows/${w.bot}/dry-run`, { event: { data: { body: 'price' } } }));
    expect404(await other.get(`/workflows/${w.bot}/runs`));
    expect404(await other.get(`/workflows/runs/${run.run_id}`));
    expect404(await other.delete(`/workflows/${w.bot}`));
    expect((await api.get(`/workflows/${w.bot}`)).body).toMatchObject({ is_active: true, name: 'Price bot' });
  });

  it('DELETE /workflows/{id} removes it from every read; its runs stay readable by run_id', async () => {
    const run = (await api.get(`/workflows/${w.bot}/runs`)).body.runs[0];
    const res = await api.delete(`/workflows/${w.bot}`);
    expect(res.status).toBe(204);
    expect404(await api.get(`/workflows/${w.bot}`));
    expect404(await api.delete(`/workflows/${w.bot}`));
    const left = (await api.get('/workflows')).body.workflows.map((x: any) => x.id);
    expect(left).not.toContain(w.bot);
    expect(left).toContain(w.second);
    expect((await api.get(`/workflows/runs/${run.run_id}`)).status).toBe(200);
  });
});
