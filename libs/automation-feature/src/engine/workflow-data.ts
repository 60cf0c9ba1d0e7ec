import { MESSAGE_TRIGGERS, type WorkflowTrigger } from '@mapi/contracts';

/** An event as the engine reads it (a DomainEvent, or a dry run's sample). */
export interface TriggerEvent {
  event_id?: string;
  event_type: string;
  phone_id?: string | null;
  created_at?: string;
  data: Record<string, unknown>;
  previous_attributes?: Record<string, unknown> | null;
}

export type WorkflowData = Record<string, Record<string, unknown> | null>;

const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function chatOf(chatId: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> | null {
  if (!chatId) return null;
  return { chat_id: chatId, chat_type: chatId.endsWith('@g.us') ? 'group' : 'user', ...extra };
}

/**
 * The objects a workflow's conditions read, by trigger (`WorkflowDataType` of @periskope/types):
 * `message`, `sender`, `chat` for message triggers; `ticket`, `chat` for tickets; `reaction`, `chat`,
 * `message` (its id) for reactions; `chat` for chat triggers; `task`, `associated_object` for tasks; `sla` (the breach), `chat` and
 * `message` (the waiting message's id) for sla.breached.
 * Every trigger also has `event` (`type`, `created_at`, `phone_id`) and `previous` (the update's
 * previous attributes). Only what the event carries is here: a chat's labels are known to chat
 * triggers (the chat object) but not to message triggers (docs/services/automation.md).
 */
export function workflowData(trigger: WorkflowTrigger | string, event: TriggerEvent): WorkflowData {
  const d = event.data ?? {};
  const base: WorkflowData = {
    event: { type: event.event_type, created_at: event.created_at ?? null, phone_id: event.phone_id ?? null },
    previous: obj(event.previous_attributes),
  };
  if ((MESSAGE_TRIGGERS as string[]).includes(trigger)) {
    const sender = str(d.sender_phone);
    return {
      ...base,
      message: { ...d, text: d.body ?? null },
      sender: sender ? { phone: sender, contact_id: `${sender.replace(/\D/g, '')}@c.us`, is_internal: d.from_me === true } : null,
      chat: chatOf(str(d.chat_id), { org_phone: d.org_phone ?? null }),
    };
  }
  if (trigger.startsWith('ticket.')) return { ...base, ticket: d, chat: chatOf(str(d.chat_id)) };
  if (trigger === 'reaction.added')
    return { ...base, reaction: d, chat: chatOf(str(d.chat_id)), message: d.message_id ? { message_id: d.message_id } : null };
  if (trigger.startsWith('chat.')) return { ...base, chat: d };
  if (trigger.startsWith('task.')) return { ...base, task: d, associated_object: obj(d.associated_object_metadata) };
  if (trigger === 'sla.breached')
    return { ...base, sla: d, chat: chatOf(str(d.chat_id)), message: d.message_id ? { message_id: d.message_id } : null };
  return base;
}

/** The value at `object.field[.more]`; undefined when any part is missing. */
export function readVariable(data: WorkflowData, name: string): unknown {
  let at: unknown = data;
  for (const part of name.split('.')) {
    if (!at || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** The chat an event concerns, for the loop guard's per-chat cap and trigger_chat sends. */
export function eventChatId(event: TriggerEvent): string | null {
  return str(event.data?.chat_id);
}
