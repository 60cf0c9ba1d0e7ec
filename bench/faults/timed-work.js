'use strict';
/**
 * The fault bench's timed work (issue 32): a workflow whose action comes after a delay step, and task
 * reminders. Both are rows that come due later, so a fault can fall between the request that was
 * accepted and its effect, with no request in flight to see it fail. Counted per accepted request:
 * the effect happened exactly once.
 *  - Workflow: `message.created` on a phone of its own (org_phones), `delay` then `send_message_to_chat`
 *    to the trigger chat. Each trigger is an inbound message on a chat of its own, so the effect of
 *    one trigger is the replies on the sandbox network in that chat (the network is what a customer
 *    sees: a step re-run after a fault must not send twice).
 *  - Reminders: a todo task per request, `remind_at` a lead ahead; the reminder's firing is its
 *    `task.reminder` event (written in the claim's transaction, the outbox row), and it is also
 *    counted at a webhook subscribed to `task.reminder` (by distinct event id: a redelivery of the same
 *    event is the webhooks' at-least-once, not a second reminder).
 */
const { randomBytes } = require('node:crypto');

/** The post-delay message; not of the fin-/fout-/fwf- prefixes the other counts read. */
const REPLY = 'delayed reply';
const REMINDER_PATH = '/reminder';

/** A trigger's chat: its own, so its replies are counted by chat. */
const triggerChat = (i) => `94${String(i).padStart(10, '0')}`;

/** The workflow: only `phoneId`'s messages start it, so the main phone's 200/s start no runs. */
async function createDelayWorkflow(json, phoneId, delaySeconds) {
  const res = await json('POST', '/workflows/create', {
    name: 'faults bench: delay, then reply',
    trigger: 'message.created',
    trigger_metadata: { org_phones: [phoneId], allow_internal_messages: false, first_action_id: 'wait' },
    actions: [
      { id: 'wait', action_metadata: { type: 'delay', metadata: { delay: `${delaySeconds} seconds` } }, next: 'reply' },
      { id: 'reply', action_metadata: { type: 'send_message_to_chat', metadata: { message: REPLY, chat_id: 'trigger_chat' } }, next: null },
    ],
  });
  if (res.status !== 201) throw new Error(`workflow not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

/** One trigger: an inbound message on its own chat of the workflow's phone. Resolves {status, chat, body}. */
async function fireTrigger(request, phoneId, i) {
  const chat = triggerChat(i);
  const body = `fwf-${i}-${randomBytes(3).toString('hex')}`;
  const r = await request('POST', '/sandbox/messages', { chat_id: chat, body }, { 'x-phone': phoneId });
  return { status: r.status, chat, body };
}

/** One todo task whose reminder is due `leadMs` from now (the client's clock; the server's is the same machine's). */
async function fireReminder(request, i, leadMs) {
  const title = `frem-${i}-${randomBytes(3).toString('hex')}`;
  const r = await request('POST', '/tasks/create', { title, remind_at: new Date(Date.now() + leadMs).toISOString() });
  return { status: r.status, title };
}

/** Replies on the network per trigger chat (digits, as the trigger named it). */
async function repliesByChat(prisma, phoneId) {
  const rows = await prisma.$queryRawUnsafe(
    `SELECT chat_id, count(*)::int AS n FROM sandbox_messages WHERE phone_id = $1 AND from_me AND body = $2 GROUP BY chat_id`,
    phoneId,
    REPLY,
  );
  return new Map(rows.map((r) => [r.chat_id.replace(/@.*$/, ''), r.n]));
}

/** The workflow's runs by status; a run still `running` may yet act (a step re-run after a fault). */
async function runsByStatus(prisma, workflowId) {
  const rows = await prisma.$queryRawUnsafe(
    `SELECT status, count(*)::int AS n FROM automation_runs WHERE workflow_id = $1::uuid GROUP BY status`,
    workflowId,
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** Why the workflow's failed steps failed (their last error), by error text: what a lost reply was lost to. */
async function failedSteps(prisma, workflowId) {
  const rows = await prisma.$queryRawUnsafe(
    `SELECT left(coalesce(s.error, '(none)'), 160) AS error, s.attempts, count(*)::int AS n FROM automation_steps s
       JOIN automation_runs r ON r.run_id = s.run_id WHERE r.workflow_id = $1::uuid AND s.status = 'failed' GROUP BY 1, 2`,
    workflowId,
  );
  return Object.fromEntries(rows.map((r) => [`${r.error} (attempt ${r.attempts})`, r.n]));
}

/**
 * The workflow's steps run more than once (claimed again after a fault): not a double by itself, the
 * idempotency key makes the effect once; shown to read a double or a loss against.
 */
async function stepsRerun(prisma, workflowId) {
  const [row] = await prisma.$queryRawUnsafe(
    `SELECT count(*)::int AS n FROM automation_steps s JOIN automation_runs r ON r.run_id = s.run_id WHERE r.workflow_id = $1::uuid AND s.attempts > 1`,
    workflowId,
  );
  return row.n;
}

/** task.reminder events written per task title (the reminder's firing). */
async function remindersByTitle(prisma, orgId) {
  const rows = await prisma.$queryRawUnsafe(
    `SELECT payload->>'title' AS title, count(*)::int AS n FROM outbox_events WHERE org_id = $1::uuid AND type = 'task.reminder' GROUP BY 1`,
    orgId,
  );
  return new Map(rows.map((r) => [r.title, r.n]));
}

/** Distinct task.reminder event ids that reached the webhook, per task title. */
function reminderHooks(receiver) {
  const byTitle = new Map();
  for (const r of receiver.requests) {
    if (r.path !== REMINDER_PATH) continue;
    const e = JSON.parse(r.body);
    const title = e.data?.title;
    if (!byTitle.has(title)) byTitle.set(title, new Set());
    byTitle.get(title).add(e.event_id);
  }
  return byTitle;
}

/** Everything the counts read, at one moment. */
async function observe(ctx) {
  const [replies, runs, failed, rerun, fired] = await Promise.all([
    repliesByChat(ctx.prisma, ctx.workflowPhoneId),
    runsByStatus(ctx.prisma, ctx.workflowId),
    failedSteps(ctx.prisma, ctx.workflowId),
    stepsRerun(ctx.prisma, ctx.workflowId),
    remindersByTitle(ctx.prisma, ctx.orgId),
  ]);
  return { replies, runs, failed, rerun, fired, hooks: reminderHooks(ctx.receiver) };
}

/**
 * Settled: every accepted trigger answered and no run still running (so a late second send would
 * already show), every accepted reminder fired and at the webhook.
 */
function settled(o, triggers, reminders) {
  return (
    triggers.every((t) => o.replies.has(t.chat)) && !o.runs.running && reminders.every((t) => o.fired.has(t.title) && o.hooks.has(t.title))
  );
}

/**
 * The summary's counts for the accepted triggers and reminders. `stored` (trigger body → rows in
 * messages) tells a workflow loss that is the trigger message's own loss from one of the run's.
 */
function countTimed(o, triggers, reminders, stored) {
  const lost = triggers.filter((t) => !o.replies.has(t.chat));
  return {
    workflow_triggers_accepted: triggers.length,
    workflow_lost: lost.length,
    workflow_lost_trigger_not_stored: lost.filter((t) => !stored.has(t.body)).length,
    workflow_doubled: triggers.filter((t) => (o.replies.get(t.chat) ?? 0) > 1).length,
    workflow_runs: o.runs,
    ...(Object.keys(o.failed).length ? { workflow_steps_failed: o.failed } : {}),
    workflow_steps_retried: o.rerun, // attempts > 1: retried after a failed attempt (a fault), not done twice — workflow_doubled says that
    reminders_accepted: reminders.length,
    reminders_lost: reminders.filter((t) => !o.fired.has(t.title)).length,
    reminders_doubled: reminders.filter((t) => (o.fired.get(t.title) ?? 0) > 1 || (o.hooks.get(t.title)?.size ?? 0) > 1).length,
    reminder_webhook_missing: reminders.filter((t) => !o.hooks.has(t.title)).length,
  };
}

module.exports = { REMINDER_PATH, createDelayWorkflow, fireTrigger, fireReminder, observe, settled, countTimed };
