// The fields of the API's objects that the console reads (the API's full shapes are in
// libs/contracts; the console keeps to these so its bundle carries no schema code).

export type Role = 'owner' | 'admin' | 'member';

export interface Me {
  member: { email: string };
  org_id: string;
  role: Role;
  /** The phones the member reaches; null: every phone. */
  phone_ids: string[] | null;
}

export interface Phone {
  phone_id: string;
  org_phone: string | null;
  phone_name: string | null;
  wa_state: string;
  qr_code: string | null;
  is_ready: boolean;
  sync_status: 'idle' | 'running' | 'failed';
  sync_progress: number;
  updated_at: string;
}

export interface Chat {
  chat_id: string;
  org_phone: string;
  chat_name?: string | null;
  name?: string | null;
  contact_name?: string | null;
  latest_message?: Message | null;
  latest_message_timestamp?: number | null;
  /** Per phone (its org_phone): unread inbound messages. */
  unread_count?: Record<string, number>;
  /** The largest of unread_count. */
  message_unread_count?: number | null;
  /** For a console session: {the member's email: their own unread messages} (their read marks, decision 0091). */
  member_unread_count?: Record<string, number> | null;
  created_at?: string;
  /** An email. */
  assigned_to?: string | null;
  /** label_id → true. */
  label_ids?: Record<string, boolean>;
  /** Flagged messages of the chat on the phones in reach. */
  flag_count?: number | null;
}

export interface Message {
  message_id: string;
  unique_id?: string | null;
  chat_id: string;
  org_phone: string;
  body: string | null;
  from_me: boolean;
  timestamp: string | null;
  ack?: string | null;
  sender_name?: string | null;
  /** Who sent it (number@c.us); in a group, the member. */
  sender_phone?: string | null;
  /** Groups: the member who wrote it. */
  author?: string | null;
  message_type?: string | null;
  /** The text before the last edit (an edited message has one). */
  prev_body?: string | null;
  is_deleted?: boolean | null;
  /** The quoted message: its message_id or its network id (unique_id). */
  quoted_message_id?: string | null;
  has_quoted_msg?: boolean | null;
  has_reaction?: boolean | null;
  media?: MessageMedia | null;
  /** The member who sent it from the console or the API. */
  performed_by?: string | null;
}

/** A message's stored file: `path` is the storage path that POST /v1/media/migrate-url turns into a link. */
export interface MessageMedia {
  filename?: string | null;
  mimetype?: string | null;
  path?: string | null;
  size?: number | null;
  /** A small preview (data: URL or base64), when the network gave one. */
  thumbnail?: string | null;
  dimensions?: { width?: number; height?: number } | null;
}

/** A reaction that stands (GET /v1/reactions, reaction.created|updated); '' is taken back. */
export interface Reaction {
  reaction_id: string;
  message_id: string;
  chat_id: string | null;
  org_phone: string;
  sender_id: string;
  reaction: string | null;
  timestamp: string | null;
}

/** A group member of GET /v1/chats/{chat_id} (`members`, keyed by contact id). */
export interface ChatMember {
  contact_id: string;
  contact_name?: string | null;
  pushname?: string | null;
  name?: string | null;
  number?: string | null;
}

/** GET /v1/chats/{chat_id}: what the conversation reads beyond the list's fields. */
export interface ChatDetail extends Chat {
  chat_type?: string | null;
  members?: Record<string, ChatMember> | null;
  /** {message_id, pinned_at, expires_at} (epoch ms), while pinned. */
  pinned_messages?: unknown;
}

export interface Member {
  user_id: string;
  email: string;
  role: 'admin' | 'member';
  is_owner: boolean | null;
  is_active: boolean;
  /** The phones reached (number@c.us, or a phone_id for a phone without a number); null: every phone. */
  org_phones: string[] | null;
  /** Lower-case label names; null: every label. */
  label_ids: string[] | null;
}

/** `447700900123@c.us` → `447700900123` (the form x-phone accepts). */
export const digits = (orgPhone: string | null): string => (orgPhone ?? '').replace(/@.*$/, '');

/** GET /v1/queue: the counts of one phone's send queue. */
export interface QueueStatus {
  phone_id: string;
  active: number;
  failed: number;
  completed: number;
  is_running: boolean;
  pending: number;
  waiting: number;
  delayed: number;
}

/** One send job (GET /v1/queue/jobs), BullMQ-shaped. */
export interface QueueJob {
  id: string;
  status: string;
  data: { chat_id: string; body: string | null };
  attemptsMade: number;
  addedTimestamp: number | null;
  finishedTimestamp: number | null;
  broadcast_id: string | null;
  failed_reason: string | null;
}

/** A webhook subscription (spec 2.3). */
export interface WebhookSubscription {
  id: string;
  subscribed_at: string;
  is_subscribed: boolean;
  integration_name: string;
  integration_metadata: { id: string; name: string };
  hook_url: string;
  integration_id: string;
}

/** One HTTP attempt of a subscription's delivery log. */
export interface WebhookAttempt {
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_at: string;
  success: boolean;
  status_code: number | null;
  latency_ms: number;
  response_body: string | null;
  error: string | null;
}

/** A knowledge-base entry (spec 2.2): an FAQ, a document's chunk, or a self-learned entry. */
export interface KbEntry {
  context_id: string;
  question: string;
  answer: string;
  type: 'faq' | 'document' | 'self-learned';
  embedding: string | null;
  document_id: string | null;
  is_active: boolean;
  metadata: Record<string, unknown> | null;
  created_at: string;
}

export const TICKET_STATUSES = ['open', 'inprogress', 'closed', 'archived'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** A ticket as GET /v1/tickets lists it (tbl_chat_tickets). */
export interface Ticket {
  ticket_id: string;
  chat_id: string;
  subject: string;
  status: TicketStatus | null;
  priority: number | null;
  assignee: string | null;
  created_at: string;
  last_updated_at: string;
}

/** GET/PATCH /v1/tickets/{ticket_id}: the ticket, its chat and the messages attached to it. */
export interface TicketInfo {
  chat: { chat_id: string; org_phone: string; chat_name?: string | null };
  ticket: Ticket & { ticket_labels: string; closed_at: string | null };
  attached_messages: { message_id: string; body: string | null; timestamp: string }[];
}

/** GET /v1/api-tokens (never the secret). */
export interface ApiToken {
  id: string;
  name: string;
  prefix: string;
  /** phone_ids; null = every phone. */
  phone_scope: string[] | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** GET /v1/labels rows. */
export interface Label {
  label_id: string;
  name: string;
  color: string;
  type: string;
  created_at: string;
}

/** A chat's private note (GET /v1/chats/{chat_id}/notes). */
export interface Note {
  message_id: string;
  chat_id: string | null;
  body: string | null;
  performed_by: string | null;
  timestamp: string | null;
}

/** GET /v1/tasks rows. */
export interface Task {
  task_id: string;
  type: 'todo' | 'chat' | 'message' | 'ticket';
  title: string;
  notes: string | null;
  status: 'open' | 'inprogress' | 'closed';
  priority: number;
  assignee: string | null;
  due_date: string | null;
  chat_id: string | null;
  association: { chat_id?: string; message_id?: string; ticket_id?: string } | null;
  created_by: string;
  created_at: string;
}
