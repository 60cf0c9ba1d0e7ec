import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { client, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * The automation process SIGKILLed with the real queue and sandbox network: once after a step's send
 * and before its outcome was recorded (held there by AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS) — the
 * restarted process claims the step again (at once: the killed one's liveness lock went with its
 * connection; the lease is only the backstop) and sends again with the same
 * idempotency key, and the network still has one message; once while a delay is pending — the
 * restarted process sends when it comes due, once; and after a forward_message (the chats' forward
 * keyed the same way), the other chat gets one copy.
 */
describe('automation: killed mid-run', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let phoneId: string;
  let automation: Stack['gateway'];
  const onNetwork = (chat: string, body: string) =>
    stack.prisma.sandboxMessage.count({ where: { phone_id: phoneId, chat_id: chat, from_me: true, body } });
  const workflow = (word: string, actions: unknown[]) => ({
    name: word,
    trigger: 'message.created',
    trigger_metadata: { first_action_id: 'gate' },
    actions: [
      {
        id: 'gate',
        action_metadata: {
          type: 'validate_action',
          metadata: {
            operator: 'AND',
            conditions: [{ id: 'c', variable_name: 'message.body', variable_type: 'string', condition: 'CONTAINS', value: word }],
          },
        },
        next: (actions[0] as { id: string }).id,
      },
      ...actions,
    ],
  });
  const runsOf = (id: string) => api.get(`/workflows/${id}/runs`);

  beforeAll(async () => {
    stack = await startStack(
      {
        SESSION_SCAN_MS: '200',
        QUEUE_PHONE_SCAN_MS: '200',
        AUTOMATION_STEP_LEASE_MS: '1500',
        AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS: '60000',
      },
      { services: ['phones', 'queue', 'automation'] },
    );
    const org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    ({ phoneId } = await connectedSandboxPhone(api));
    automation = stack.apps.automation;
  }, 120_000);

  afterAll(() => stack?.stop(), 60_000);

  it('killed after sending and before recording: the step is run again with the same key and the network has one message', async () => {
    const wf = (
      await api.post(
        '/workflows/create',
        workflow('now', [
          { id: 'reply', action_metadata: { type: 'send_message_to_chat', metadata: { message: 'Right away' } }, next: null },
        ]),
      )
    ).body;
    const customer = randomDigits();
    await api.post('/sandbox/messages', { chat_id: customer, body: 'answer me now' }, { 'x-phone': phoneId });
    await until(
      () => onNetwork(`${customer}@c.us`, 'Right away'),
      (n) => n === 1,
      20_000,
      'reply on the network',
    );
    // the reply step is held after its send: its outcome is not recorded
    const held = await runsOf(wf.id);
    expect(held.body.runs[0].steps.find((s: any) => s.action_id === 'reply')).toMatchObject({ status: 'pending', attempts: 1 });
    await automation.kill();
    automation = await stack.startService('automation', { AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS: '0' });
    const done = await until(
      () => runsOf(wf.id),
      (r) => r.body?.runs?.[0]?.status === 'completed',
      20_000,
      'run completed after the restart',
    );
    expect(done.body.runs[0].steps.find((s: any) => s.action_id === 'reply')).toMatchObject({ status: 'completed', attempts: 2 });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await onNetwork(`${customer}@c.us`, 'Right away')).toBe(1);
  }, 90_000);

  it('killed while a delay is pending: the restarted process sends when it comes due, once', async () => {
    const wf = (
      await api.post(
        '/workflows/create',
        workflow('later', [
          { id: 'wait', action_metadata: { type: 'delay', metadata: { delay: '3 seconds' } }, next: 'reply' },
          { id: 'reply', action_metadata: { type: 'send_message_to_chat', metadata: { message: 'As promised' } }, next: null },
        ]),
      )
    ).body;
    const customer = randomDigits();
    await api.post('/sandbox/messages', { chat_id: customer, body: 'tell me later' }, { 'x-phone': phoneId });
    await until(
      () => runsOf(wf.id),
      (r) => r.body?.runs?.[0]?.steps?.some((s: any) => s.action_id === 'reply'),
      20_000,
      'delay done, reply pending',
    );
    await automation.kill();
    await new Promise((r) => setTimeout(r, 3_500));
    expect(await onNetwork(`${customer}@c.us`, 'As promised')).toBe(0);
    automation = await stack.startService('automation', { AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS: '0' });
    await until(
      () => runsOf(wf.id),
      (r) => r.body?.runs?.[0]?.status === 'completed',
      20_000,
      'run completed',
    );
    await until(
      () => onNetwork(`${customer}@c.us`, 'As promised'),
      (n) => n === 1,
      15_000,
      'reply on the network',
    );
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await onNetwork(`${customer}@c.us`, 'As promised')).toBe(1);
  }, 90_000);

  it('killed after forwarding and before recording: the forward is run again with the same key and the other chat gets one copy', async () => {
    await automation.kill();
    automation = await stack.startService('automation', { AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS: '60000' });
    const target = randomDigits();
    const wf = (
      await api.post(
        '/workflows/create',
        workflow('pass', [
          { id: 'fwd', action_metadata: { type: 'forward_message', metadata: { chat_id: `${target}@c.us` } }, next: null },
        ]),
      )
    ).body;
    const customer = randomDigits();
    await api.post('/sandbox/messages', { chat_id: customer, body: 'pass this on' }, { 'x-phone': phoneId });
    await until(
      () => onNetwork(`${target}@c.us`, 'pass this on'),
      (n) => n === 1,
      20_000,
      'forward on the network',
    );
    const held = await runsOf(wf.id);
    expect(held.body.runs[0].steps.find((s: any) => s.action_id === 'fwd')).toMatchObject({ status: 'pending', attempts: 1 });
    await automation.kill();
    automation = await stack.startService('automation', { AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS: '0' });
    const done = await until(
      () => runsOf(wf.id),
      (r) => r.body?.runs?.[0]?.status === 'completed',
      20_000,
      'run completed after the restart',
    );
    expect(done.body.runs[0].steps.find((s: any) => s.action_id === 'fwd')).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: { [`${target}@c.us`]: true },
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await onNetwork(`${target}@c.us`, 'pass this on')).toBe(1);
  }, 90_000);
});
