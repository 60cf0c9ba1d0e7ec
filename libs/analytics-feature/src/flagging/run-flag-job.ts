import { ErrorCode, ServiceError, type RequestContext } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { ModelUnavailableError, type ChatCompletionsClient } from '@mapi/platform';
import type { FlagRuleRow } from './flag-rule-row';
import { flagPrompt, readVerdict } from './flag-model';

/** A claimed row of analytics_flag_jobs. */
export interface FlagJobRow {
  job_id: string;
  org_id: string;
  action: string;
  rule_id: string | null;
  phone_id: string;
  chat_id: string;
  message_id: string;
  message_at: Date;
  response_id: string | null;
  response_at: Date | null;
  reason: string | null;
  body: string | null;
  attempts: number;
}

/** How a job ended: done (with its outcome), failed for good, or to be tried again after `retryInMs`. */
export type JobEnd =
  { state: 'done' | 'failed'; outcome: string; reason?: string | null } | { state: 'retry'; outcome: string; retryInMs: number };

/** What a job needs: the chats service (chats.v1.message.flag) and, for model rules, the model. */
export interface FlagJobDeps {
  prisma: PrismaClient;
  flag: (req: {
    ctx: RequestContext;
    params: { message_id: string };
    body: Record<string, unknown> & { flag: boolean };
  }) => Promise<{ flag_status?: unknown }>;
  model: ChatCompletionsClient | null;
  modelAttempts: number;
}

/** The service's own context when it acts on a message: the organization, the message's phone; token_id names the rule (or the job). */
const ctxOf = (job: FlagJobRow): RequestContext => ({
  org_id: job.org_id,
  token_id: job.rule_id ?? job.job_id,
  phone_scope: null,
  phone: { phone_id: job.phone_id, org_phone: null },
  member: null,
});

const backoff = (attempts: number) => Math.min(60_000, 2_000 * 2 ** Math.max(0, attempts - 1));

/** Calls chats.v1.message.flag; a message gone (404) ends the job, the chats service away retries it. */
async function callFlag(deps: FlagJobDeps, job: FlagJobRow, body: Record<string, unknown> & { flag: boolean }): Promise<JobEnd> {
  try {
    const m = await deps.flag({ ctx: ctxOf(job), params: { message_id: job.message_id }, body });
    return {
      state: 'done',
      outcome: body.flag ? (m.flag_status === true ? 'flagged' : 'unchanged') : 'unflagged',
      reason: (body.reason as string) ?? null,
    };
  } catch (err) {
    if (err instanceof ServiceError && err.code === ErrorCode.NOT_FOUND_ERROR) return { state: 'done', outcome: 'gone' };
    if (err instanceof ServiceError && err.status < 500) return { state: 'failed', outcome: err.message.slice(0, 500) };
    return { state: 'retry', outcome: (err as Error).message.slice(0, 500), retryInMs: backoff(job.attempts) };
  }
}

/**
 * Runs one claimed job (docs/services/analytics.md "Flagging"). A flag job: its rule gone or disabled, or the
 * chat answered since the message → done without flagging; a model rule asks the model first (unavailable:
 * tried again up to FLAG_MODEL_ATTEMPTS; refused or not understood: failed; "no": done, not flagged); then the
 * chats service flags the message once (`unless_flagged_before`: never again after someone cleared it). An
 * unflag job clears the flag with the reply as the response.
 */
export async function runFlagJob(deps: FlagJobDeps, job: FlagJobRow): Promise<JobEnd> {
  if (job.action === 'unflag') {
    return callFlag(deps, job, {
      flag: false,
      response: {
        type: 'message',
        response_id: job.response_id ?? '',
        response_timestamp: (job.response_at ?? new Date()).toISOString(),
        response_phone: job.phone_id,
      },
    });
  }
  const rule = job.rule_id ? await deps.prisma.analyticsFlagRule.findFirst({ where: { org_id: job.org_id, rule_id: job.rule_id } }) : null;
  if (!rule || !rule.enabled) return { state: 'done', outcome: 'rule gone' };
  const answered = await deps.prisma.analyticsFlagChat.findUnique({
    where: { org_id_chat_id: { org_id: job.org_id, chat_id: job.chat_id } },
  });
  if (answered && answered.last_out_at >= job.message_at) return { state: 'done', outcome: 'answered' };
  let reason = job.reason;
  let flaggedBy = `rule:${rule.name}`.slice(0, 200);
  if (rule.kind === 'model') {
    const verdict = await askModel(deps, job, rule);
    if ('state' in verdict) return verdict;
    if (!verdict.flag) return { state: 'done', outcome: 'not flagged' };
    reason = `${rule.name}: ${verdict.reason ?? 'the model flagged it'}`;
    flaggedBy = `model:${deps.model?.model ?? ''}`.slice(0, 200);
  }
  return callFlag(deps, job, {
    flag: true,
    reason: (reason ?? rule.name).slice(0, 1000),
    flagged_by: flaggedBy,
    rule_id: rule.rule_id,
    unless_flagged_before: true,
  });
}

async function askModel(deps: FlagJobDeps, job: FlagJobRow, rule: FlagRuleRow): Promise<{ flag: boolean; reason: string | null } | JobEnd> {
  if (!deps.model) return { state: 'done', outcome: 'no model configured' };
  const body = job.body;
  if (!body || !body.trim()) return { state: 'done', outcome: 'no text' };
  let answer: string;
  try {
    answer = await deps.model.complete(flagPrompt(rule.prompt ?? '', body));
  } catch (err) {
    const message = (err as Error).message.slice(0, 500);
    if (err instanceof ModelUnavailableError && job.attempts < deps.modelAttempts)
      return { state: 'retry', outcome: message, retryInMs: backoff(job.attempts) };
    return { state: 'failed', outcome: message };
  }
  const verdict = readVerdict(answer);
  if (!verdict) return { state: 'failed', outcome: `the model's answer was not understood: ${answer.slice(0, 200)}` };
  return verdict;
}
