import { randomUUID } from 'node:crypto';
import { AI_AGENT_OFF_NO_MODEL, CreateTicketRpc, SearchKbRpc, SendMessageRpc } from '@mapi/contracts';
import { startChatModelServer, type ChatModelServer } from '@mapi/testing';
import { AgentConfigSchema } from '../../agent/agent-config';
import { AiAgent } from '../../agent/ai-agent';
import type { AgentSwitchRepository } from '../../agent/agent-switch.repository';
import { ChatCompletionsClient } from '../../agent/chat-completions.client';
import type { RunRow } from '../../repositories/run-repository';
import { ActionError, idempotencyKeyOf, type ActionContext, type RpcCaller } from './action-context';
import { runAiAgent } from './ai-agent.action';
import { StepSkipped } from './step-skipped';

/**
 * The ai_prompt action with the real model client against a local OpenAI-compatible server, and the
 * services it calls (search, queue, inbox) as a recording RPC double: what it asks of each, with
 * which key, and what it records.
 */
describe('runAiAgent', () => {
  let model: ChatModelServer;
  const HOURS = {
    context_id: randomUUID(),
    type: 'faq',
    question: 'What are your opening hours?',
    answer: 'Open 9 to 5.',
    is_active: true,
    score: 0.62,
  };
  const FAR = {
    context_id: randomUUID(),
    type: 'faq',
    question: 'How long does delivery take?',
    answer: '2 days.',
    is_active: true,
    score: 0.1,
  };
  let calls: Array<{ subject: string; payload: any }>;
  let hits: (typeof HOURS)[];
  let switchOn: boolean;
  const rpc: RpcCaller = {
    call: (async (contract: { subject: string }, payload: any) => {
      calls.push({ subject: contract.subject, payload });
      if (contract.subject === SearchKbRpc.subject) return { data: hits.slice(0, payload.body.k), count: hits.length };
      if (contract.subject === SendMessageRpc.subject) return { queue_id: 'job-1', queue_position: '1', unique_id: 'u-1' };
      if (contract.subject === CreateTicketRpc.subject) return { ticket: { ticket_id: 't-1', chat_id: payload.body.chat_id } };
      throw new Error(`unexpected RPC ${contract.subject}`);
    }) as RpcCaller['call'],
  };
  const agent = (configured = true) => {
    const config = AgentConfigSchema.parse({});
    const chat = configured
      ? new ChatCompletionsClient({ baseUrl: model.baseUrl, model: 'tiny', timeoutMs: 2_000, maxTokens: 100, temperature: 0 })
      : null;
    return new AiAgent(config, { enabled: async () => switchOn } as unknown as AgentSwitchRepository, chat);
  };
  const run: RunRow = {
    run_id: randomUUID(),
    org_id: randomUUID(),
    workflow_id: randomUUID(),
    event_id: randomUUID(),
    event_type: 'message.created',
    phone_id: 'phone-1',
    chat_id: '15550001111@c.us',
    event: {},
    definition: {},
    status: 'running',
    reason: null,
    started_at: new Date(),
    finished_at: null,
  };
  const ctx = (body: string, metadata: Record<string, unknown> = { agent: {} }): ActionContext => ({
    run,
    event: { event_type: 'message.created', data: { body, message_id: 'm-1' } },
    action_id: 'agent',
    metadata,
    earlier: [],
  });

  beforeAll(async () => {
    model = await startChatModelServer();
  });
  afterAll(() => model.stop());
  beforeEach(() => {
    calls = [];
    hits = [HOURS, FAR];
    switchOn = true;
  });

  it('answers from the close entries only, through the queue with the step key (the same on a re-run), citing the entry', async () => {
    const first = await runAiAgent(rpc, ctx('what are your opening hours'), agent());
    expect(first).toMatchObject({
      outcome: 'answered',
      output: 'Open 9 to 5.',
      input: 'what are your opening hours',
      min_score: 0.35,
      cited: [{ context_id: HOURS.context_id, score: 0.62 }],
      retrieved: [{ context_id: HOURS.context_id }, { context_id: FAR.context_id }],
      message_details: { queue_id: 'job-1' },
    });
    expect(calls[0]).toMatchObject({
      subject: SearchKbRpc.subject,
      payload: { ctx: { org_id: run.org_id }, body: { query: 'what are your opening hours', k: 3, is_active: true } },
    });
    expect(model.requests[model.requests.length - 1].body.messages[0].content).not.toContain(FAR.question);
    await runAiAgent(rpc, ctx('what are your opening hours'), agent());
    const sends = calls.filter((c) => c.subject === SendMessageRpc.subject);
    expect(sends.map((s) => s.payload.headers['idempotency-key'])).toEqual([idempotencyKeyOf(ctx('')), idempotencyKeyOf(ctx(''))]);
    expect(sends[0].payload.body).toEqual({ chat_id: run.chat_id, message: 'Open 9 to 5.' });
    // the workflow acts (the queue records no sender, performed_by, for it: docs/services/queue.md "Sender")
    expect(sends[0].payload.ctx).toMatchObject({ token_id: run.workflow_id, member: null, actor: 'workflow' });
  });

  it("the action's min_score, max_entries and body override the defaults and the message", async () => {
    const r = await runAiAgent(
      rpc,
      ctx('ignored', { body: 'opening hours please, what are they', agent: { min_score: 0.7, max_entries: 1 } }),
      agent(),
    );
    expect(calls[0].payload.body).toMatchObject({ query: 'opening hours please, what are they', k: 1 });
    expect(r).toMatchObject({
      outcome: 'handed_over',
      handover: 'no_reply',
      reason: 'nothing in the knowledge base is close enough (the best scored 0.62; the threshold is 0.7)',
    });
    expect(calls.map((c) => c.subject)).toEqual([SearchKbRpc.subject]);
  });

  it('hands over with a ticket (the step key) when the model declines; nothing sent', async () => {
    const before = model.requests.length;
    const r = await runAiAgent(
      rpc,
      ctx('can I pay with bitcoin', { agent: { min_score: 0, handover: { ticket: { subject: 'Needs a person' } } } }),
      agent(),
    );
    expect(model.requests.length).toBe(before + 1);
    expect(r).toMatchObject({
      outcome: 'handed_over',
      handover: 'ticket',
      model_output: 'CANNOT_ANSWER',
      ticket_details: { ticket_id: 't-1' },
    });
    const ticket = calls.filter((c) => c.subject === CreateTicketRpc.subject)[0];
    expect(ticket.payload.headers['idempotency-key']).toBe(idempotencyKeyOf(ctx('')));
    expect(ticket.payload.body).toMatchObject({ chat_id: run.chat_id, subject: 'Needs a person', quoted_message_id: 'm-1' });
    expect(calls.some((c) => c.subject === SendMessageRpc.subject)).toBe(false);
  });

  it('no model: fails saying the agent is off; switched off: skipped with the reason, nothing asked; no text: fails', async () => {
    await expect(runAiAgent(rpc, ctx('opening hours'), agent(false))).rejects.toThrow(new ActionError(AI_AGENT_OFF_NO_MODEL));
    await expect(runAiAgent(rpc, ctx('opening hours'), undefined)).rejects.toThrow(AI_AGENT_OFF_NO_MODEL);
    switchOn = false;
    const skipped = await runAiAgent(rpc, ctx('opening hours'), agent()).catch((e) => e);
    expect(skipped).toBeInstanceOf(StepSkipped);
    expect(skipped.message).toBe('the AI agent is switched off for phone phone-1');
    expect(calls).toEqual([]);
    switchOn = true;
    await expect(runAiAgent(rpc, ctx('   '), agent())).rejects.toThrow(/no text/);
    const own = await runAiAgent(
      rpc,
      { ...ctx('opening hours'), event: { event_type: 'message.created', data: { body: 'opening hours', from_me: true } } },
      agent(),
    ).catch((e) => e);
    expect(own).toBeInstanceOf(StepSkipped);
    expect(own.message).toMatch(/sent by the organization/);
    expect(calls).toEqual([]);
  });
});
