import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOrg, createToken, randomDigits, registryPayload } from '@mapi/testing';
import { client, expect422, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * Workflows' second slice of actions end to end (issue 19): assign_ticket, assign_chat, ticket labels,
 * flag_message / unflag_message (and the message.flagged trigger they fire), forward_message and
 * notify_http, over the sandbox network with gateway, chats, phones, queue, inbox and automation as
 * processes and a local HTTP receiver (allowed by AUTOMATION_HTTP_ALLOW_CIDRS; everything else of the
 * SSRF policy applies).
 */
describe('automation: assign, labels, flag, forward, notify_http', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let receiver: Server;
  let hookUrl: string;
  const hits: { req: IncomingMessage; body: string }[] = [];
  /** Answers to give, in order, per path (then 200). */
  const script: Record<string, number[]> = {};
  const w: Record<string, any> = {};
  const customer = randomDigits();
  const chat = `${customer}@c.us`;
  const SECRET = 'whsec_' + Buffer.from('0123456789abcdef0123456789abcdef').toString('base64');
  const x = () => ({ 'x-phone': w.phone });
  const validate = (id: string, prefix: string, next: string) => ({
    id,
    action_metadata: {
      type: 'validate_action',
      metadata: {
        operator: 'AND',
        conditions: [{ id: 'c', variable_name: 'message.body', variable_type: 'string', condition: 'STARTS_WITH', value: prefix }],
      },
    },
    next,
  });
  const create = async (body: Record<string, unknown>) => {
    const res = await api.post('/workflows/create', body);
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const endedRun = (workflowId: string) =>
    until(
      () => api.get(`/workflows/${workflowId}/runs`),
      (r) => ['completed', 'failed'].includes(r.body?.runs?.[0]?.status),
      40_000,
      `run of ${workflowId} ended`,
    ).then((r) => r.body.runs[0]);
  const inbound = async (body: string) => {
    const res = await api.post('/sandbox/messages', { chat_id: customer, body }, x());
    expect(res.status).toBeLessThan(300);
    return res.body.message_id as string;
  };

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hits.push({ req, body });
        const status = script[req.url ?? '']?.shift() ?? 200;
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: status < 300, path: req.url }));
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    stack = await startStack(
      { SESSION_SCAN_MS: '200', QUEUE_PHONE_SCAN_MS: '200', AUTOMATION_HTTP_ALLOW_CIDRS: '127.0.0.1/32' },
      { services: ['phones', 'queue', 'inbox', 'automation'] },
    );
    w.org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, w.org.id)).token);
    other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
    ({ phoneId: w.phone } = await connectedSandboxPhone(api));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    receiver?.closeAllConnections();
    await new Promise((r) => receiver?.close(r));
  }, 60_000);

  it('ticket.due and chat.closed stay 422: nothing fires them here', async () => {
    for (const trigger of ['ticket.due', 'chat.closed']) {
      expect422(
        await api.post('/workflows/create', { name: 'T', trigger, trigger_metadata: { first_action_id: null }, actions: [] }),
        'body.trigger',
        /not supported here yet/,
      );
    }
  });

  it.each([
    [
      { type: 'assign_ticket', metadata: { assignee: { round_robin: true, emails: ['a@example.com'] } } },
      'body.actions.0.action_metadata.metadata.assignee.round_robin',
      /round-robin/,
    ],
    [
      { type: 'assign_chat', metadata: { assignee: { round_robin: false, email: 'nobody' } } },
      'body.actions.0.action_metadata.metadata.assignee.email',
      /email/,
    ],
    [{ type: 'add_ticket_label', metadata: { labels: [] } }, 'body.actions.0.action_metadata.metadata.labels', /at least one/],
    [{ type: 'forward_message', metadata: { chat_id: 'nope' } }, 'body.actions.0.action_metadata.metadata.chat_id', /chat ids/],
    [
      { type: 'notify_http', metadata: { url: 'file:///etc/passwd', method: 'POST' } },
      'body.actions.0.action_metadata.metadata.url',
      /http\(s\) URL/,
    ],
    [
      { type: 'notify_http', metadata: { url: 'https://example.com', method: 'POST', headers: { 'Webhook-Signature': 'forged' } } },
      'body.actions.0.action_metadata.metadata.headers.Webhook-Signature',
      /set by the service/,
    ],
  ])('a malformed action is 422 naming its field, on create and on PATCH (%#)', async (action, field, message) => {
    const body = {
      name: 'Bad',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'a' },
      actions: [{ id: 'a', action_metadata: action, next: null }],
    };
    expect422(await api.post('/workflows/create', body), field, message);
    w.patchable ??= await create({
      name: 'Patchable',
      trigger: 'message.created',
      is_active: false,
      trigger_metadata: { first_action_id: null },
      actions: [],
    });
    expect422(
      await api.patch(`/workflows/${w.patchable}`, { trigger_metadata: body.trigger_metadata, actions: body.actions }),
      field,
      message,
    );
  });

  it('an order is ticketed, assigned, labelled; the chat assigned; the message flagged and forwarded; an endpoint notified, signed', async () => {
    const forwardTo = randomDigits();
    w.orders = await create({
      name: 'Orders',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'is-order' },
      actions: [
        validate('is-order', 'order', 'ticket'),
        {
          id: 'ticket',
          action_metadata: {
            type: 'create_ticket',
            metadata: { subject: 'Order', assignee: { round_robin: false, email: null }, status: 'open', labels: ['order'], due_in: null },
          },
          next: 'assign',
        },
        {
          id: 'assign',
          action_metadata: { type: 'assign_ticket', metadata: { assignee: { round_robin: false, email: 'Amy@Example.com' } } },
          next: 'label',
        },
        { id: 'label', action_metadata: { type: 'add_ticket_label', metadata: { labels: ['VIP', 'urgent'] } }, next: 'unlabel' },
        { id: 'unlabel', action_metadata: { type: 'remove_ticket_label', metadata: { labels: ['Urgent'] } }, next: 'chat' },
        {
          id: 'chat',
          action_metadata: { type: 'assign_chat', metadata: { assignee: { round_robin: false, email: 'bo@example.com' } } },
          next: 'flag',
        },
        { id: 'flag', action_metadata: { type: 'flag_message', metadata: {} }, next: 'forward' },
        { id: 'forward', action_metadata: { type: 'forward_message', metadata: { chat_id: `${forwardTo}@c.us` } }, next: 'notify' },
        {
          id: 'notify',
          action_metadata: {
            type: 'notify_http',
            metadata: {
              url: `${hookUrl}/orders?src=wf`,
              method: 'POST',
              headers: { authorization: 'Bearer shop-token' },
              body: '{"kind":"order"}',
              signing_secret: SECRET,
            },
          },
          next: null,
        },
      ],
    });
    const messageId = await inbound('order #42: two blue ones');
    const run = await endedRun(w.orders);
    expect({ status: run.status, reason: run.reason }).toEqual({ status: 'completed', reason: null });
    expect(run.steps.map((s: any) => [s.action_id, s.status])).toEqual(
      ['is-order', 'ticket', 'assign', 'label', 'unlabel', 'chat', 'flag', 'forward', 'notify'].map((a) => [a, 'completed']),
    );
    const result = (id: string) => run.steps.find((s: any) => s.action_id === id).result;
    const ticketId = result('ticket').ticket_details.ticket_id;
    const ticket = (await api.get(`/tickets/${ticketId}`)).body.ticket;
    expect(ticket).toMatchObject({ assignee: 'amy@example.com', ticket_labels: 'order,vip', quoted_message_id: messageId });
    expect(result('unlabel').ticket_details).toEqual({ ticket_id: ticketId, labels: ['order', 'vip'], changed: true });
    expect((await api.get(`/chats/${chat}`, x())).body.assigned_to).toBe('bo@example.com');
    expect(result('chat').chat_details).toEqual({ chat_id: chat, assigned_to: 'bo@example.com', org_id: w.org.id });
    // flagged, with its event
    const message = (await api.get(`/message/${encodeURIComponent(messageId)}`, x())).body;
    expect(message).toMatchObject({ flag_status: true, flag_metadata: { status: true, flagged_by: w.orders } });
    const flagged = await stack.prisma.outboxEvent.findMany({ where: { org_id: w.org.id, type: 'message.flagged' } });
    expect(flagged.map((e) => registryPayload(e))).toEqual([expect.objectContaining({ message_id: messageId, flag_status: true })]);
    // forwarded once to the other chat
    const copies = await until(
      () => api.get(`/chats/${forwardTo}/messages`, x()),
      (r) => r.body?.count >= 1,
      15_000,
      'forwarded copy',
    );
    expect(copies.body.messages[0]).toMatchObject({ body: 'order #42: two blue ones', is_forwarded: true, from_me: true });
    expect(result('forward')).toEqual({ [`${forwardTo}@c.us`]: true });
    // the endpoint: one request, the workflow's headers and body, the step's key, a verifiable signature
    const calls = hits.filter((h) => h.req.url === '/orders?src=wf');
    expect(calls).toHaveLength(1);
    const { req, body } = calls[0];
    expect(req.method).toBe('POST');
    expect(body).toBe('{"kind":"order"}');
    expect(req.headers).toMatchObject({ authorization: 'Bearer shop-token', 'user-agent': 'mapi-workflows/1' });
    expect(req.headers['idempotency-key']).toMatch(/^workflow-[0-9a-f]{64}$/);
    expect(req.headers['webhook-id']).toBe(req.headers['idempotency-key']);
    const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
    const signed = `${req.headers['webhook-id']}.${req.headers['webhook-timestamp']}.${body}`;
    expect(req.headers['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(signed).digest('base64')}`);
    expect(result('notify')).toEqual({ status: 200, data: { ok: true, path: '/orders?src=wf' }, error: null });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await api.get(`/chats/${forwardTo}/messages`, x()).then((r) => r.body.count)).toBe(1);
    // the run log's filter on the trigger's conditions: a message that is no order starts a run that stops there
    await inbound('hello, just browsing');
    await until(
      () => api.get(`/workflows/${w.orders}/runs`),
      (r) => r.body?.count === 2 && r.body.runs[0].status === 'completed',
      30_000,
      'second run',
    );
    const failed = await api.get(`/workflows/${w.orders}/runs?first_condition=failed`);
    expect(failed.status).toBe(200);
    expect(failed.body.runs.map((r: any) => r.steps.map((s: any) => [s.action_id, s.result])).flat()).toEqual([
      ['is-order', { passed: false }],
    ]);
    const passed = await api.get(`/workflows/${w.orders}/runs?first_condition=passed&status=completed`);
    expect(passed.body.runs.map((r: any) => r.run_id)).toEqual([run.run_id]);
    expect((await api.get(`/workflows/${w.orders}/runs?first_condition=failed&status=failed`)).body.count).toBe(0);
    expect422(await api.get(`/workflows/${w.orders}/runs?first_condition=maybe`), 'first_condition', /passed or failed/);
    expect((await other.get(`/workflows/${w.orders}/runs?first_condition=failed`)).status).toBe(404);
    expect((await api.patch(`/workflows/${w.orders}`, { is_active: false })).status).toBe(200);
  }, 90_000);

  it('a flag fires message.flagged workflows: one flags, another (trigger message.flagged) clears it, emitting message.unflagged', async () => {
    const flagger = await create({
      name: 'Flagger',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'is-urgent' },
      actions: [
        validate('is-urgent', 'urgent', 'flag'),
        { id: 'flag', action_metadata: { type: 'flag_message', metadata: {} }, next: null },
      ],
    });
    const unflagger = await create({
      name: 'Unflagger',
      trigger: 'message.flagged',
      trigger_metadata: { first_action_id: 'unflag' },
      actions: [{ id: 'unflag', action_metadata: { type: 'unflag_message', metadata: {} }, next: null }],
    });
    const messageId = await inbound('urgent: call me');
    expect((await endedRun(flagger)).status).toBe('completed');
    const run = await endedRun(unflagger);
    expect(run).toMatchObject({ status: 'completed', event_type: 'message.flagged' });
    expect(run.steps[0].result.message_details).toEqual({ message_id: messageId, chat_id: chat, flag_status: false });
    const message = (await api.get(`/message/${encodeURIComponent(messageId)}`, x())).body;
    expect(message).toMatchObject({
      flag_status: false,
      flag_metadata: { status: false, response_type: 'manual', response_email: unflagger },
    });
    const unflagged = await stack.prisma.outboxEvent.findMany({ where: { org_id: w.org.id, type: 'message.unflagged' } });
    expect(unflagged.map((e) => registryPayload(e))).toEqual([expect.objectContaining({ message_id: messageId, flag_status: false })]);
    for (const id of [flagger, unflagger]) expect((await api.patch(`/workflows/${id}`, { is_active: false })).status).toBe(200);
  }, 90_000);

  it('notify_http: a 503 is retried with the same key; a 4xx fails the run with its answer; a private address is refused without connecting', async () => {
    script['/flaky'] = [503];
    script['/gone'] = [404];
    const hook = (id: string, url: string, next: string | null) => ({
      id,
      action_metadata: { type: 'notify_http', metadata: { url, method: 'PUT', headers: {}, body: 'ping' } },
      next,
    });
    const retried = await create({
      name: 'Flaky',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'v' },
      actions: [validate('v', 'ping', 'h'), hook('h', `${hookUrl}/flaky`, null)],
    });
    const gone = await create({
      name: 'Gone',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'v' },
      actions: [validate('v', 'ping', 'h'), hook('h', `${hookUrl}/gone`, null)],
    });
    const metadata = await create({
      name: 'Metadata',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'v' },
      actions: [validate('v', 'ping', 'h'), hook('h', 'http://169.254.169.254/latest/meta-data', null)],
    });
    await inbound('ping the shop');
    const ok = await endedRun(retried);
    expect(ok.status).toBe('completed');
    expect(ok.steps[1]).toMatchObject({ status: 'completed', attempts: 2, result: { status: 200 } });
    const flaky = hits.filter((h) => h.req.url === '/flaky');
    expect(flaky.map((h) => h.req.method)).toEqual(['PUT', 'PUT']);
    expect(flaky[1].req.headers['idempotency-key']).toBe(flaky[0].req.headers['idempotency-key']);
    const failed = await endedRun(gone);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.steps[1]).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.steps[1].error).toMatch(/answered 404/);
    const refused = await endedRun(metadata);
    expect(refused.status).toBe('failed');
    expect(refused.steps[1].error).toMatch(/refused: address 169\.254\.169\.254 is not allowed/);
    expect(hits.filter((h) => h.req.url?.startsWith('/latest'))).toHaveLength(0);
    for (const id of [retried, gone, metadata]) expect((await api.patch(`/workflows/${id}`, { is_active: false })).status).toBe(200);
  }, 90_000);

  it('ticket.closed fires when a ticket update closes it (ticket.updated with the previous status), not on other updates', async () => {
    const onClose = await create({
      name: 'On close',
      trigger: 'ticket.closed',
      trigger_metadata: { first_action_id: 'tag' },
      actions: [
        { id: 'tag', action_metadata: { type: 'add_ticket_label', metadata: { labels: ['closed-by-customer-care'] } }, next: null },
      ],
    });
    await inbound('about my ticket');
    const made = await until(
      () => api.post('/tickets/create', { chat_id: chat, subject: 'Closing test' }, x()),
      (r) => r.status !== 404,
      15_000,
      'chat stored',
    );
    expect(made.status).toBe(200);
    const ticketId = made.body.ticket.ticket_id;
    expect((await api.patch(`/tickets/${ticketId}`, { priority: 2 }, x())).status).toBe(200);
    expect((await api.patch(`/tickets/${ticketId}`, { status: 'closed' }, x())).status).toBe(200);
    const run = await endedRun(onClose);
    expect(run).toMatchObject({ status: 'completed', event_type: 'ticket.updated' });
    expect(run.steps[0].result.ticket_details).toMatchObject({ ticket_id: ticketId, changed: true });
    expect((await api.get(`/tickets/${ticketId}`, x())).body.ticket.ticket_labels).toBe('closed-by-customer-care');
    // the label the run wrote is an update of a closed ticket, not a closing: no second run
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await api.get(`/workflows/${onClose}/runs`)).body.count).toBe(1);
    expect((await api.patch(`/workflows/${onClose}`, { is_active: false })).status).toBe(200);
  }, 60_000);

  it("another organization's token sees none of these workflows or runs, and changes none", async () => {
    const run = (await api.get(`/workflows/${w.orders}/runs`)).body.runs[0];
    expect((await other.get(`/workflows/${w.orders}`)).status).toBe(404);
    expect((await other.get(`/workflows/runs/${run.run_id}`)).status).toBe(404);
    expect((await other.patch(`/workflows/${w.orders}`, { is_active: true })).status).toBe(404);
    expect((await other.get('/workflows')).body.count).toBe(0);
    expect((await api.get(`/workflows/${w.orders}`)).body.is_active).toBe(false);
    // their workflow (flag every message, forward it to them) never runs on this organization's events
    const theirs = await other.post('/workflows/create', {
      name: 'Theirs',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'flag' },
      actions: [
        { id: 'flag', action_metadata: { type: 'flag_message', metadata: {} }, next: 'fwd' },
        { id: 'fwd', action_metadata: { type: 'forward_message', metadata: { chat_id: `${randomDigits()}@c.us` } }, next: null },
      ],
    });
    expect(theirs.status).toBe(201);
    const mine = await create({
      name: 'Mine',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'v' },
      actions: [validate('v', 'zzz', 'n'), { id: 'n', action_metadata: { type: 'delay', metadata: { delay: '1 seconds' } }, next: null }],
    });
    const messageId = await inbound('not for them');
    expect((await endedRun(mine)).status).toBe('completed');
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await other.get(`/workflows/${theirs.body.id}/runs`)).body.count).toBe(0);
    expect((await api.get(`/message/${encodeURIComponent(messageId)}`, x())).body.flag_status).not.toBe(true);
    expect((await api.get(`/workflows/${theirs.body.id}`)).status).toBe(404);
  }, 60_000);
});
