import type { MessageFact } from '../ingest/message-facts';

/**
 * A builder of message facts of one organization and phone, timed in minutes after `t0` (version t0):
 * `fact(chat_id, id, minutes, from_me, performed_by?)`, its message_id `<from_me>_<chat_id>_<id>`.
 */
export const factsOf =
  (org_id: string, phone_id: string, t0: number) =>
  (chat_id: string, id: string, minutes: number, from_me: boolean, performed_by: string | null = null): MessageFact => ({
    org_id,
    phone_id,
    chat_id,
    message_id: `${from_me}_${chat_id}_${id}`,
    at: t0 + minutes * 60_000,
    from_me,
    flagged: false,
    version: t0,
    performed_by,
  });
