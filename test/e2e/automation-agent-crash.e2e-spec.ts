import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrg, createToken, randomDigits, startChatModelServer, type ChatModelServer } from '@mapi/testing';
import { client, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * The automation process SIGKILLed after the AI agent sent its answer and before the step was recorded
 * (held there by AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS): the restarted process claims the step again
 * (at once: the killed one's liveness lock went with it), asks the model again and sends with the same idempotency key — the network
 * still has one answer.
 */
describe('automation: the AI agent killed mid-step', () => {
  let stack: Stack;
  let model: ChatModelServer;
  let storageRoot: string;
  const ANSWER = 'Returns are free within 30 days.';

  beforeAll(async () => {
    model = await startChatModelServer();
    storageRoot = mkdtempSync(join(tmpdir(), 'mapi-agent-crash-'));
    stack = await startStack(
      {
        SESSION_SCAN_MS: '200',
        QUEUE_PHONE_SCAN_MS: '200',
        MEDIA_STORAGE_ROOT: storageRoot,
        AI_AGENT_BASE_URL: model.baseUrl,
        AI_AGENT_MODEL: 'tiny-faq',
        AUTOMATION_STEP_LEASE_MS: '1500',
      },
      { services: ['phones', 'queue', 'knowledge-base', 'embedding-worker'] },
    );
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await model?.stop();
    if (storageRoot) rmSync(storageRoot, { recursive: true, force: true });
  }, 60_000);

  it('killed after sending its answer and before recording it: re-run with the same key, one answer on the network', async () => {
    let automation = await stack.startService('automation', { AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS: '60000' });
    const org = await createOrg(stack.prisma);
    const api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    const { phoneId } = await connectedSandboxPhone(api);
    const faq = await api.post('/knowledge-base/faq/create', { question: 'How do returns work?', answer: ANSWER, is_active: true });
    expect(faq.status).toBe(200);
    await until(
      () => api.get(`/knowledge-base/faq/${faq.body.context_id}`),
      (r) => Boolean(r.body?.embedding),
      15_000,
      'embedded',
    );
    const wf = await api.post('/workflows/create', {
      name: 'Agent',
      trigger: 'message.created',
      trigger_metadata: { first_action_id: 'agent' },
      actions: [{ id: 'agent', action_metadata: { type: 'ai_prompt', metadata: { agent: {} } }, next: null }],
    });
    expect(wf.status).toBe(201);
    const customer = randomDigits();
    const chat = `${customer}@c.us`;
    const onNetwork = () => stack.prisma.sandboxMessage.count({ where: { phone_id: phoneId, chat_id: chat, from_me: true, body: ANSWER } });
    await api.post('/sandbox/messages', { chat_id: customer, body: 'How do returns work for shoes?' }, { 'x-phone': phoneId });
    await until(onNetwork, (n) => n === 1, 20_000, 'the answer on the network');
    const held = await api.get(`/workflows/${wf.body.id}/runs`);
    expect(held.body.runs[0].steps[0]).toMatchObject({ action_id: 'agent', status: 'pending', attempts: 1 });
    expect(model.requests).toHaveLength(1);
    await automation.kill();
    automation = await stack.startService('automation', { AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS: '0' });
    const done = await until(
      () => api.get(`/workflows/${wf.body.id}/runs`),
      (r) => r.body?.runs?.[0]?.status === 'completed',
      20_000,
      'run completed after the restart',
    );
    const step = done.body.runs[0].steps[0];
    expect(step).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: { outcome: 'answered', output: ANSWER, cited: [{ context_id: faq.body.context_id }] },
    });
    expect(model.requests).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await onNetwork()).toBe(1);
  }, 120_000);
});
