import { z } from 'zod';
import { AiPromptMetadataSchema } from './ai-agent.schema';
import { MORE_ACTION_METADATA } from './more-action-metadata.schema';

/** `<n> seconds|minutes|hours|days` (@periskope/types), at most 30 days. */
export const DURATION = /^\s*(\d+)\s+(second|minute|hour|day)s?\s*$/i;
const UNIT_MS: Record<string, number> = { second: 1_000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };
export const MAX_DELAY_MS = 30 * 86_400_000;

/** Milliseconds of a duration text, or null when it does not read as one. */
export function durationMs(text: string): number | null {
  const m = DURATION.exec(text);
  return m ? Number(m[1]) * UNIT_MS[m[2].toLowerCase()] : null;
}

const duration = z
  .string({ error: 'must be a duration such as "5 minutes"' })
  .refine((v) => durationMs(v) !== null, 'must be a duration such as "30 seconds", "5 minutes", "2 hours" or "1 days"')
  .refine((v) => (durationMs(v) ?? 0) <= MAX_DELAY_MS, 'must be at most 30 days');

const labels = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'a label must not be empty')
      .max(100, 'a label is at most 100 characters')
      .regex(/^[^,]*$/, 'a label must not contain a comma'),
    { error: 'labels must be an array of label names' },
  )
  .min(1, 'name at least one label')
  .max(100);

const ChatTarget = z.union([
  z.literal('trigger_chat'),
  z.string().regex(/^[0-9A-Za-z.\-_]+@(c|g)\.us$/, "chat_id must be 'trigger_chat' or a chat id such as 14155550123@c.us"),
]);

/**
 * The metadata of each action type this service runs, by type. An action type of @periskope/types that
 * is not here is refused with 422 "not supported here yet" (see UNSUPPORTED_ACTIONS), never run as a no-op.
 */
export const ACTION_METADATA = {
  send_message_to_chat: z.object({
    message: z.string({ error: 'message must be a string' }).min(1, 'message must not be empty').max(65_536),
    chat_id: ChatTarget.nullable().optional(),
    media: z.null({ error: 'media is not supported here yet' }).optional(),
    debounce: z.null({ error: 'debounce is not supported here yet' }).optional(),
    unflag_chat: z.boolean().optional(),
    as_reply: z.boolean().optional(),
  }),
  delay: z.object({ delay: duration }),
  add_chat_label: z.object({ labels }),
  remove_chat_label: z.object({ labels }),
  create_ticket: z.object({
    subject: z.string().trim().min(1).max(500).nullable(),
    assignee: z
      .object({
        round_robin: z.literal(false, { error: 'round-robin assignment is not supported here yet' }),
        email: z.email({ error: 'assignee.email must be an email' }).nullable(),
      })
      .optional(),
    priority: z.enum(['0', '1', '2', '3', '4']).optional(),
    status: z.enum(['open', 'inprogress', 'closed']).optional(),
    labels: z
      .array(
        z
          .string()
          .trim()
          .min(1)
          .max(100)
          .regex(/^[^,]*$/, 'a label must not contain a comma'),
      )
      .max(100)
      .optional(),
    due_in: duration.nullable().optional(),
  }),
  close_ticket: z.object({ closing_note: z.string().max(10_000).optional(), bypass_mandatory_fields: z.boolean().optional() }),
  ai_prompt: AiPromptMetadataSchema,
  ...MORE_ACTION_METADATA,
} as const;

export type RunnableActionType = keyof typeof ACTION_METADATA;
export const RUNNABLE_ACTIONS = Object.keys(ACTION_METADATA) as RunnableActionType[];
/** Flow actions: evaluated by the graph walker, never sent anywhere. */
export const FLOW_ACTIONS = ['validate_action', 'split_path'] as const;

/** Action types of @periskope/types this service does not run yet (a later slice). */
export const UNSUPPORTED_ACTIONS = [
  'attach_to_latest_ticket',
  'send_email',
  'delete_message',
  'close_chat',
  'send_slack_notification',
] as const;

export const SplitPathMetadata = z.object({
  paths: z
    .array(z.object({ id: z.string().min(1).max(200), condition_action_id: z.string().min(1).max(200) }), {
      error: 'paths must be an array',
    })
    .min(1, 'a split needs at least one path')
    .max(20),
});
