import { z } from 'zod';
import { MESSAGE_COMMANDS, PerformedBySchema } from './message-commands';
import { MessageTemplateSchema } from '../cloud-api/cloud-api-template';

export * from './message-commands';

/**
 * Internal commands to a phone's session, answered by whichever phones replica runs it: request/reply
 * on `<ns>.phones.v1.session.<phone_id>` (no answer: no replica runs the session). The receiver
 * validates each command against SessionCommandSchema; the sender reads the answer with
 * SessionAnswerSchema.
 */
export const SESSION_SUBJECT = 'phones.v1.session';
export const sessionSubject = (namespace: string, phoneId: string) => `${namespace}.${SESSION_SUBJECT}.${phoneId}`;
/** The subject before it was versioned; receivers also answer on it for one release (remove after it). */
export const legacySessionSubject = (namespace: string, phoneId: string) => `${namespace}.phones.session.${phoneId}`;

export const ParticipantActionSchema = z.enum(['add', 'remove', 'promote', 'demote']);
export type ParticipantAction = z.infer<typeof ParticipantActionSchema>;

/** Per participant, Baileys-style status codes: 200 done, 403 not allowed, 404 not a member, 409 already so. */
export const ParticipantResultSchema = z.object({ id: z.string(), status: z.enum(['200', '403', '404', '409']) });
export type ParticipantResult = z.infer<typeof ParticipantResultSchema>;

/** What a send puts on the network (../shared/reference/wider-api.md, "Send message"). */
export const OutgoingContentSchema = z.object({
  text: z.string().optional(),
  media: z
    .object({
      type: z.string().optional(),
      url: z.string().optional(),
      filedata: z.string().optional(),
      filename: z.string(),
      mimetype: z.string(),
    })
    .optional(),
  reply_to: z.string().optional(),
  poll: z.object({ name: z.string(), options: z.array(z.string()), allow_multiple: z.boolean() }).optional(),
  hide_url_preview: z.boolean().optional(),
  /** A Cloud API phone's approved template (other connectors refuse it). */
  template: MessageTemplateSchema.optional(),
});
export type OutgoingContent = z.infer<typeof OutgoingContentSchema>;

/** A group's settings as the network takes them (group lifecycle, docs/services/groups.md). */
export const GroupSettingsSchema = z.object({
  subject: z.string().min(1).optional(),
  description: z.string().optional(),
  /** only admins send messages */
  announce: z.boolean().optional(),
  /** only admins edit the group's info */
  restrict: z.boolean().optional(),
  /** only admins add participants */
  member_add_admins_only: z.boolean().optional(),
});
export type GroupSettings = z.infer<typeof GroupSettingsSchema>;

/** Commands that are their name only (the sender may give just the name). */
export const SimpleSessionCommandSchema = z.object({ cmd: z.enum(['resync', 'restart', 'logout', 'ping']) });
export type SimpleSessionCommand = z.infer<typeof SimpleSessionCommandSchema>;

export const SessionCommandSchema = z.discriminatedUnion('cmd', [
  SimpleSessionCommandSchema,
  z.object({
    cmd: z.literal('group-participants'),
    chat_id: z.string().min(1),
    participants: z.array(z.string().min(1)),
    action: ParticipantActionSchema,
  }),
  /**
   * Sends one message; `sent_message_id` (the queue job's id) is stored on the message and makes a repeat a no-op;
   * `performed_by` (who sent it: performedByOf) is stored as the message's performed_by (absent or null: not known).
   */
  z.object({
    cmd: z.literal('send'),
    chat_id: z.string().min(1),
    content: OutgoingContentSchema,
    sent_message_id: z.string().min(1),
    performed_by: PerformedBySchema.nullable().optional(),
  }),
  /** Pairing by code instead of a QR scan: the network answers a code to type on the phone. */
  z.object({ cmd: z.literal('pairing-code'), number: z.string().min(1) }),
  /** Group lifecycle: answered with `group` (create, accept-invite) or `invite_code` (invite). */
  z.object({
    cmd: z.literal('group-create'),
    subject: z.string().min(1),
    participants: z.array(z.string().min(1)),
    settings: GroupSettingsSchema.optional(),
  }),
  z.object({ cmd: z.literal('group-invite-code'), chat_id: z.string().min(1) }),
  z.object({ cmd: z.literal('group-settings'), chat_id: z.string().min(1), settings: GroupSettingsSchema }),
  z.object({ cmd: z.literal('group-accept-invite'), invite_code: z.string().min(1) }),
  z.object({ cmd: z.literal('group-leave'), chat_id: z.string().min(1) }),
  /**
   * Whether a free-form (non-template) message to `chat_id` would be refused now: `refused` with the
   * reason when the network says so in advance (a Cloud API phone's 24-hour window known closed), else ok.
   */
  z.object({ cmd: z.literal('send-window'), chat_id: z.string().min(1) }),
  /** The chat was read in this service: the network's read mark for it (a Cloud API phone's mark-as-read); a no-op elsewhere. */
  z.object({ cmd: z.literal('chat-read'), chat_id: z.string().min(1) }),
  ...MESSAGE_COMMANDS,
]);
export type SessionCommand = z.infer<typeof SessionCommandSchema>;

export const SessionAnswerSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    results: z.array(ParticipantResultSchema).optional(),
    sent: z.object({ unique_id: z.string(), timestamp: z.string(), duplicate: z.boolean() }).optional(),
    pairing_code: z.string().optional(),
    /** group-create, group-accept-invite: the group's id */
    group: z.object({ chat_id: z.string() }).optional(),
    /** group-invite-code */
    invite_code: z.string().optional(),
  }),
  /**
   * `disconnected`: the phone is not connected, nothing was done. `unavailable`: the session cannot
   * reach a dependency of its own (its database) right now — a retry later will do. `refused`: the network
   * refused the send for good (e.g. the Cloud API's 24-hour window), a retry cannot succeed. `throttled`: the
   * network refused it for now because of its rate limits (Meta's 130429, 131056, 80007, …): nothing was sent,
   * the same request goes once the phone slowed down. `error`: anything else.
   */
  z.object({
    ok: z.literal(false),
    reason: z.enum(['disconnected', 'unavailable', 'refused', 'throttled', 'error']),
    message: z.string(),
  }),
]);
export type SessionAnswer = z.infer<typeof SessionAnswerSchema>;

const issues = (error: z.ZodError, root: string) => error.issues.map((i) => `${[root, ...i.path].join('.')}: ${i.message}`).join('; ');

/** A received command checked against the contract: the command, or the answer to give a malformed one. */
export function readSessionCommand(raw: unknown): { command: SessionCommand } | { answer: Extract<SessionAnswer, { ok: false }> } {
  const parsed = SessionCommandSchema.safeParse(raw);
  if (parsed.success) return { command: parsed.data };
  return { answer: { ok: false, reason: 'error', message: `Malformed session command: ${issues(parsed.error, 'command')}` } };
}

/** A received answer checked against the contract; a malformed one reads as the session failing. */
export function readSessionAnswer(raw: unknown): SessionAnswer {
  const parsed = SessionAnswerSchema.safeParse(raw);
  return parsed.success
    ? parsed.data
    : { ok: false, reason: 'error', message: `Malformed session answer: ${issues(parsed.error, 'answer')}` };
}
