/** A message of a chat as the response fold reads it, in the chat's order (at, then message_id). */
export interface ChatMessage {
  message_id: string;
  at: number;
  from_me: boolean;
  /** Who sent it (the message's performed_by); null or absent: not known. */
  performed_by?: string | null;
}

export interface ResponseSample {
  incoming_message_id: string;
  incoming_at: number;
  response_message_id: string;
  response_at: number;
  /** Who sent the response (its performed_by; null: not known): the team figures' member. */
  responder: string | null;
  /**
   * A next response: the chat copy had an outgoing message before the incoming one (a conversation already
   * answered). false: a first response (the chat copy's first reply).
   */
  next: boolean;
}

export interface ChatFold {
  samples: ResponseSample[];
  /** The first incoming message since the last outgoing one, if unanswered. */
  waiting: { message_id: string; at: number } | null;
  last_outgoing_at: number | null;
  last_message_at: number | null;
}

/**
 * Responses of a run of a chat's messages that starts right after an outgoing one (`before`, the last
 * outgoing message before the run, or none) and goes to the chat's end: a response is the first
 * outgoing message after an unanswered incoming one, and answers the first incoming message since the
 * previous outgoing one; it is a first response when no outgoing message precedes that incoming one
 * (the chat copy had never been answered), a next response otherwise. Outgoing messages with nothing to
 * answer answer nothing. `waiting`: an incoming message before the run still unanswered (the chat's
 * state, when the run only appends to it; it is after `before`, so `before` tells whether it was answered).
 */
export function foldChat(
  before: { at: number } | null,
  messages: readonly ChatMessage[],
  waiting: { message_id: string; at: number } | null = null,
): ChatFold {
  const samples: ResponseSample[] = [];
  let pending: { message_id: string; at: number } | null = waiting;
  let lastOutgoing = before?.at ?? null;
  let last = before?.at ?? null;
  let pendingNext = lastOutgoing !== null;
  for (const m of messages) {
    last = m.at;
    if (!m.from_me) {
      if (!pending) {
        pending = m;
        pendingNext = lastOutgoing !== null;
      }
      continue;
    }
    lastOutgoing = m.at;
    if (pending) {
      samples.push({
        incoming_message_id: pending.message_id,
        incoming_at: pending.at,
        response_message_id: m.message_id,
        response_at: m.at,
        responder: m.performed_by ?? null,
        next: pendingNext,
      });
      pending = null;
    }
  }
  return {
    samples,
    waiting: pending ? { message_id: pending.message_id, at: pending.at } : null,
    last_outgoing_at: lastOutgoing,
    last_message_at: last,
  };
}
