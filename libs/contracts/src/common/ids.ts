import { z } from 'zod';

/** Phone digits: country code + number, no spaces or symbols (spec 1, rule 4). */
export const PHONE_DIGITS = /^[0-9]{6,20}$/;
/** `phone-<12+ lowercase alphanumerics>` (spec 1, rule 4). */
export const PHONE_ID = /^phone-[a-z0-9]{12,}$/;
const INDIVIDUAL_CHAT = /^([0-9]{6,20})(@c\.us)?$/;
const GROUP_CHAT = /^[0-9A-Za-z][0-9A-Za-z-]*@g\.us$/;

export type PhoneRef = { kind: 'phone_id'; phone_id: string } | { kind: 'digits'; org_phone: string };

/** Parses an `x-phone` header value; null when it is neither form. */
export function parsePhoneRef(value: string): PhoneRef | null {
  const v = value.trim();
  if (PHONE_ID.test(v)) return { kind: 'phone_id', phone_id: v };
  if (PHONE_DIGITS.test(v)) return { kind: 'digits', org_phone: `${v}@c.us` };
  return null;
}

export const XPhoneSchema = z
  .string()
  .min(1, 'x-phone must not be empty')
  .refine((v) => parsePhoneRef(v) !== null, {
    message: 'x-phone must be phone digits (country code + number) or a phone_id of the form phone-<id>',
  });

/**
 * Normalizes a chat id: digits and digits@c.us name the same individual chat (stored as
 * `<digits>@c.us`); group ids end in @g.us and are kept as given. Null when neither.
 */
export function normalizeChatId(value: string): string | null {
  const individual = INDIVIDUAL_CHAT.exec(value);
  if (individual) return `${individual[1]}@c.us`;
  if (GROUP_CHAT.test(value)) return value;
  return null;
}

export function isGroupChatId(value: string): boolean {
  return GROUP_CHAT.test(value);
}

export const ChatIdSchema = z
  .string()
  .min(1, 'chat_id must not be empty')
  .transform((v, ctx) => {
    const normalized = normalizeChatId(v);
    if (!normalized) {
      ctx.addIssue({
        code: 'custom',
        message: 'chat_id must be a number with optional @c.us, or a group id ending with @g.us',
      });
      return z.NEVER;
    }
    return normalized;
  });

/** Most chats one request changes at once (PATCH /chats/labels, PATCH /chats/access). */
export const MAX_CHATS_PER_REQUEST = 1000;

/** `chat_ids` of the routes that change many chats at once: 1 to MAX_CHATS_PER_REQUEST chat ids. */
export const ChatIdListSchema = z
  .array(ChatIdSchema, { error: 'chat_ids must be an array of chat ids' })
  .min(1, 'chat_ids must not be empty')
  .max(MAX_CHATS_PER_REQUEST, `chat_ids must hold at most ${MAX_CHATS_PER_REQUEST} ids`);

export const GroupChatIdSchema = z
  .string()
  .min(1, 'chat_id must not be empty')
  .refine(isGroupChatId, { message: 'chat_id must be a group id ending with @g.us' });

/** `<digits>@c.us` for a phone number's contact id. */
export function contactId(digits: string): string {
  return digits.endsWith('@c.us') ? digits : `${digits}@c.us`;
}
