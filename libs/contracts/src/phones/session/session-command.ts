/**
 * Internal commands to a phone's session, answered by whichever phones replica runs it (request/reply
 * on `<ns>.phones.session.<phone_id>`; no answer: no replica runs the session).
 */
export type ParticipantAction = 'add' | 'remove' | 'promote' | 'demote';
/** Per participant, Baileys-style status codes: 200 done, 403 not allowed, 404 not a member, 409 already so. */
export interface ParticipantResult {
  id: string;
  status: '200' | '403' | '404' | '409';
}

/** What a send puts on the network (wider-api "Send message"). */
export interface OutgoingContent {
  text?: string;
  media?: { type?: string; url?: string; filedata?: string; filename: string; mimetype: string };
  reply_to?: string;
  poll?: { name: string; options: string[]; allow_multiple: boolean };
  hide_url_preview?: boolean;
}

export type SessionCommand =
  | { cmd: 'resync' | 'restart' | 'logout' | 'ping' }
  | { cmd: 'group-participants'; chat_id: string; participants: string[]; action: ParticipantAction }
  /** Sends one message; `sent_message_id` (the queue job's id) is stored on the message and makes a repeat a no-op. */
  | { cmd: 'send'; chat_id: string; content: OutgoingContent; sent_message_id: string }
  /** Pairing by code instead of a QR scan: the network answers a code to type on the phone. */
  | { cmd: 'pairing-code'; number: string };
export type SessionAnswer =
  | { ok: true; results?: ParticipantResult[]; sent?: { unique_id: string; timestamp: string; duplicate: boolean }; pairing_code?: string }
  | { ok: false; reason: 'disconnected' | 'error'; message: string };

export const sessionSubject = (namespace: string, phoneId: string) => `${namespace}.phones.session.${phoneId}`;
