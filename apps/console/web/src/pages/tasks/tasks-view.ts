import { PRIORITIES } from '../tickets/ticket-view';

export { PRIORITIES };

export const TASK_STATUSES = ['open', 'inprogress', 'closed'] as const;
export const TASK_STATUS_TEXT: Record<string, string> = { open: 'open', inprogress: 'in progress', closed: 'closed' };

/** `/tasks?…` with the status filter (blank: every status). */
export function tasksPath(status: string, limit = 200): string {
  const q = new URLSearchParams({ limit: String(limit) });
  if (status) q.set('status', status);
  return `/tasks?${q.toString()}`;
}

/** A chat as typed (a number with any punctuation, or a chat id) → the chat id the API takes. */
export const chatIdOf = (typed: string): string => (typed.includes('@') ? typed.trim() : `${typed.replace(/\D/g, '')}@c.us`);

/**
 * The create form → POST /v1/tasks/create: the title trimmed; a chat makes it a chat task (without
 * one, a todo); assignee and due date only when given (the date as the end of that day, UTC).
 */
export function taskBody(form: { title: string; chat: string; assignee: string; due: string; priority: string }): Record<string, unknown> {
  const body: Record<string, unknown> = { title: form.title.trim(), priority: Number(form.priority || 1) };
  if (form.chat.trim()) body.association = { chat_id: chatIdOf(form.chat) };
  const assignee = form.assignee.trim().toLowerCase();
  if (assignee) body.assignee = assignee;
  if (form.due) body.due_date = `${form.due}T23:59:59Z`;
  return body;
}

/** What a task is about, in words. */
export function aboutText(t: { type: string; association: { chat_id?: string; message_id?: string; ticket_id?: string } | null }): string {
  const a = t.association;
  if (!a) return 'to-do';
  if (a.ticket_id) return `ticket ${a.ticket_id}`;
  if (a.message_id) return `message in ${a.chat_id ?? ''}`;
  return a.chat_id ? `chat ${a.chat_id}` : t.type;
}
