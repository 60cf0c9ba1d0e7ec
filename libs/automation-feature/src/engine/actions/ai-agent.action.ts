import { AI_AGENT_OFF_NO_MODEL, SendMessageRpc, type AiPromptMetadata } from '@mapi/contracts';
import { buildMessages, parseAnswer } from '../../agent/agent-prompt';
import { switchedOff, type AiAgent } from '../../agent/ai-agent';
import { retrieve, type RetrievedEntry } from '../../agent/retrieve';
import { ActionError, actionCtx, idempotencyKeyOf, type ActionContext, type RpcCaller } from './action-context';
import { changeChatLabels } from './chat-labels.action';
import { StepSkipped } from './step-skipped';
import { createTicket } from './tickets.action';

const cite = (e: RetrievedEntry) => ({ context_id: e.context_id, type: e.type, question: e.question, score: e.score });
const FROM_ME = "the AI agent answers customers' messages; this one was sent by the organization (from_me)";
const clip = (s: string, n = 2_000) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * ai_prompt, the knowledge-base AI agent: off (the step fails, saying so) while no model is configured;
 * skipped while the phone's switch is off. Otherwise it retrieves the organization's active entries
 * nearest the message (knowledge-base search RPC), keeps those at or above the score threshold, asks
 * the model to answer from them only, and either sends its answer to the chat through the queue (the
 * step's idempotency key: a re-run step gets the first job back, never a second message) or hands over
 * as the action says (a ticket, labels, or no reply) when nothing is close enough or the model cannot
 * answer. The result records the entries retrieved and cited (ids), the answer or the hand-over and why.
 */
export async function runAiAgent(rpc: RpcCaller, c: ActionContext, agent: AiAgent | undefined): Promise<Record<string, unknown>> {
  if (!agent?.chat) throw new ActionError(AI_AGENT_OFF_NO_MODEL);
  const m = c.metadata as AiPromptMetadata;
  const chatId = c.run.chat_id;
  const input = (m.body?.trim() || (typeof c.event.data.body === 'string' ? c.event.data.body : '')).trim();
  if (!chatId) throw new ActionError('the AI agent answers in a chat: the event has none');
  if (!input) throw new ActionError('the AI agent answers a message: the event has no text (message body) and the action no body');
  const base = { query: m.query ?? '', input, model: agent.chat.model };
  // a workflow allowing internal messages would otherwise have the agent answer its own replies
  if (c.event.data.from_me === true) throw new StepSkipped(FROM_ME, { ...base, output: null, outcome: 'skipped' });
  if (c.run.phone_id && !(await agent.switches.enabled(c.run.org_id, c.run.phone_id))) {
    throw new StepSkipped(switchedOff(c.run.phone_id), { ...base, output: null, outcome: 'skipped' });
  }
  const minScore = m.agent?.min_score ?? agent.config.AI_AGENT_MIN_SCORE;
  const k = m.agent?.max_entries ?? agent.config.AI_AGENT_MAX_ENTRIES;
  const { close, nearest } = await retrieve(rpc, actionCtx(c.run), input, k, minScore);
  const found = { ...base, min_score: minScore, retrieved: nearest };
  if (!close.length) {
    const best = nearest[0] ? `the best scored ${nearest[0].score}` : 'no active entry has an embedding';
    return handOver(
      rpc,
      c,
      m,
      { ...found, cited: [] },
      `nothing in the knowledge base is close enough (${best}; the threshold is ${minScore})`,
    );
  }
  const raw = await agent.chat.complete(buildMessages(close, input, m.query));
  const parsed = parseAnswer(raw, close.length);
  if (parsed.kind === 'cannot_answer') return handOver(rpc, c, m, { ...found, cited: [], model_output: clip(raw) }, parsed.reason);
  const cited = parsed.sources.map((n) => cite(close[n - 1]));
  const sent = await rpc.call(SendMessageRpc, {
    ctx: actionCtx(c.run),
    headers: { 'idempotency-key': idempotencyKeyOf(c) },
    body: { chat_id: chatId, message: parsed.text },
  });
  return {
    ...found,
    outcome: 'answered',
    output: parsed.text,
    cited,
    message_details: { queue_id: sent.queue_id, queue_position: Number(sent.queue_position), unique_id: sent.unique_id },
    chat_id: chatId,
  };
}

/** No answer: the ticket and labels the action names (either, both, or neither: no reply), with the reason. */
async function handOver(
  rpc: RpcCaller,
  c: ActionContext,
  m: AiPromptMetadata,
  found: Record<string, unknown>,
  reason: string,
): Promise<Record<string, unknown>> {
  const h = m.agent?.handover ?? {};
  const done: Record<string, unknown> = {
    ...found,
    outcome: 'handed_over',
    output: null,
    reason,
    handover: h.ticket ? (h.labels ? 'ticket+labels' : 'ticket') : h.labels ? 'labels' : 'no_reply',
  };
  if (h.ticket) {
    const t = h.ticket;
    const made = await createTicket(rpc, {
      ...c,
      metadata: {
        subject: t.subject ?? null,
        assignee: { round_robin: false, email: t.assignee ?? null },
        priority: t.priority,
        labels: t.labels,
      },
    });
    done.ticket_details = made.ticket_details;
  }
  if (h.labels) done.chat_details = (await changeChatLabels(rpc, { ...c, metadata: { labels: h.labels } }, 'add')).chat_details;
  return done;
}
