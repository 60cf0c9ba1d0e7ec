/** A message_id's parts: `<from_me>_<chat_id>_<unique_id>` (spec 4.1). */
export interface MessageIdParts {
  from_me: boolean;
  chat_id: string;
  unique_id: string;
}

/**
 * Split after the chat id's domain (the first `@domain_`), never at the last `_`: a unique id may hold
 * `_` (Meta's wamids are base64, a Cloud API phone's too), a chat id's domain never does.
 */
const MESSAGE_ID = /^(true|false)_(.+?@[a-z.]+)_(.+)$/;

/** The parts of a message_id, or null when `value` is not one (a bare unique_id, a queue id). */
export function splitMessageId(value: string): MessageIdParts | null {
  const m = MESSAGE_ID.exec(value);
  return m ? { from_me: m[1] === 'true', chat_id: m[2], unique_id: m[3] } : null;
}

/** The message_id of a message's parts. */
export const joinMessageId = (p: MessageIdParts) => `${p.from_me}_${p.chat_id}_${p.unique_id}`;
