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

export type SessionCommand =
  | { cmd: 'resync' | 'restart' | 'logout' | 'ping' }
  | { cmd: 'group-participants'; chat_id: string; participants: string[]; action: ParticipantAction };
export type SessionAnswer = { ok: true; results?: ParticipantResult[] } | { ok: false; reason: 'disconnected' | 'error'; message: string };

export const sessionSubject = (namespace: string, phoneId: string) => `${namespace}.phones.session.${phoneId}`;
