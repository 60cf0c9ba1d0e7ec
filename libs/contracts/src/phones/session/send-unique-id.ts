import { createHash } from 'node:crypto';

/**
 * The network id of a message sent through the API: derived from the phone and the send's id (the
 * queue job id), so it is known when the job is queued (the send answer's `unique_id`) and a retry
 * after a crash re-sends the very same message. Every connector uses it.
 */
export function sendUniqueId(phoneId: string, sentMessageId: string): string {
  return `3EB0${createHash('sha256').update(`${phoneId}:${sentMessageId}`).digest('hex').slice(0, 36).toUpperCase()}`;
}
