import { z } from 'zod';
import { ChatIdSchema } from '../../common/ids';
import { TASK_STATUSES, TASK_TYPES } from '../../events/task/task.schema';
import { parseDate } from '../ticket/ticket-info.schema';

export const TaskStatusSchema = z.enum(TASK_STATUSES, { error: 'status must be one of open, inprogress, closed' });
export const TaskTypeSchema = z.enum(TASK_TYPES, { error: 'type must be one of todo, chat, message, ticket' });

export const TaskTitleSchema = z
  .string({ error: 'title must be a string' })
  .trim()
  .min(1, 'title must not be empty')
  .max(500, 'title is at most 500 characters');
export const TaskNotesSchema = z.string({ error: 'notes must be a string' }).max(10_000, 'notes is at most 10000 characters');

/** A date field ("2025-04-09 18:29:59+00", ISO 8601, epoch ms), kept as ISO 8601. */
export const taskDate = (name: string) =>
  z
    .string({ error: `${name} must be a date string` })
    .max(100, `${name} is too long`)
    .transform((v, ctx) => {
      const at = parseDate(v);
      if (!at) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a date, e.g. 2025-04-09 18:29:59+00 or 2025-04-09T18:29:59Z` });
        return z.NEVER;
      }
      return at.toISOString();
    });

/**
 * The associated object, by its ids: `{chat_id}` a chat, `{chat_id, message_id}` a message of that
 * chat, `{ticket_id}` a ticket. Exactly one of these forms.
 */
export const TaskAssociationInput = z
  .object(
    {
      chat_id: ChatIdSchema.optional(),
      message_id: z
        .string({ error: 'message_id must be a string' })
        .min(1, 'message_id must not be empty')
        .max(512, 'message_id is too long')
        .optional(),
      ticket_id: z.uuid({ error: 'ticket_id must be a UUID' }).optional(),
    },
    { error: 'association must be an object: {chat_id}, {chat_id, message_id} or {ticket_id}' },
  )
  .superRefine((a, ctx) => {
    if (a.ticket_id !== undefined && (a.chat_id !== undefined || a.message_id !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['ticket_id'], message: 'a ticket association takes ticket_id alone' });
    } else if (a.message_id !== undefined && a.chat_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['chat_id'], message: 'a message association needs the chat_id of its chat' });
    } else if (a.ticket_id === undefined && a.chat_id === undefined) {
      ctx.addIssue({ code: 'custom', message: 'association must name chat_id, chat_id and message_id, or ticket_id' });
    }
  });
export type TaskAssociationInput = z.infer<typeof TaskAssociationInput>;

/** The kind of object an association names. */
export function associationType(a: TaskAssociationInput | undefined): (typeof TASK_TYPES)[number] {
  if (!a) return 'todo';
  if (a.ticket_id) return 'ticket';
  return a.message_id ? 'message' : 'chat';
}

/** `task_id`: the UUID the task was created with. */
export const TaskIdParams = z.object({ task_id: z.uuid({ error: 'task_id must be a UUID' }) });

export const REPEAT_INTERVALS = ['days', 'weeks', 'months', 'years'] as const;
export const REPEAT_ENDS = ['never', 'after', 'on'] as const;
/** Most occurrences a series with end "after" has; largest frequency. */
export const MAX_REPEAT_COUNT = 1000;
export const MAX_REPEAT_FREQUENCY = 1000;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `reminder_setting.repeat` (`TaskType` of @periskope/types): every `frequency` `interval`s from the
 * reminder's first remind_at; `end` never, `after` (`on`: how many reminders the series has, in all),
 * or `on` (`on`: the last day or instant a reminder may fall on). Normalized: `on` is the count's
 * digits, a date alone as YYYY-MM-DD, or an instant as ISO 8601; absent for never.
 */
export const ReminderRepeatSchema = z
  .object(
    {
      frequency: z
        .union(
          [
            z.number(),
            z
              .string()
              .trim()
              .regex(/^[0-9]{1,6}$/)
              .transform(Number),
          ],
          { error: 'frequency must be a whole number' },
        )
        .pipe(
          z
            .number()
            .int('frequency must be a whole number')
            .min(1, 'frequency is at least 1')
            .max(MAX_REPEAT_FREQUENCY, `frequency is at most ${MAX_REPEAT_FREQUENCY}`),
        ),
      interval: z.enum(REPEAT_INTERVALS, { error: `interval must be one of ${REPEAT_INTERVALS.join(', ')}` }),
      end: z.enum(REPEAT_ENDS, { error: `end must be one of ${REPEAT_ENDS.join(', ')}` }).default('never'),
      on: z.union([z.string().max(100, 'on is too long'), z.number()], { error: 'on must be a string' }).optional(),
    },
    { error: 'repeat must be an object {frequency, interval, end, on}' },
  )
  .transform((r, ctx) => {
    const on = r.on === undefined ? undefined : String(r.on).trim();
    if (r.end === 'never') {
      if (on !== undefined && on !== '')
        ctx.addIssue({ code: 'custom', path: ['on'], message: 'on is only for end after (a count) or on (a date)' });
      return { frequency: r.frequency, interval: r.interval, end: r.end };
    }
    if (r.end === 'after') {
      const count = on !== undefined && /^\d{1,4}$/.test(on) ? Number(on) : NaN;
      if (!(count >= 1 && count <= MAX_REPEAT_COUNT)) {
        ctx.addIssue({ code: 'custom', path: ['on'], message: `end after needs on: how many reminders in all, 1–${MAX_REPEAT_COUNT}` });
        return z.NEVER;
      }
      return { frequency: r.frequency, interval: r.interval, end: r.end, on: String(count) };
    }
    const at = on ? parseDate(on) : null;
    if (!on || !at) {
      ctx.addIssue({ code: 'custom', path: ['on'], message: 'end on needs on: the last date, e.g. 2026-12-31 or 2026-12-31T18:00:00Z' });
      return z.NEVER;
    }
    return { frequency: r.frequency, interval: r.interval, end: r.end, on: DATE_ONLY.test(on) ? on : at.toISOString() };
  });
export type ReminderRepeat = z.infer<typeof ReminderRepeatSchema>;

const REMIND_IN = /^\s*([0-9]{1,5})\s+(minute|minutes|hour|hours|day|days)\s+(before|after)\s*$/i;
const UNIT_MS = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

/** `remind_in` read: the offset from the due date in ms (negative: before); null when it is not one. */
export function remindInOffset(remindIn: string): number | null {
  const m = REMIND_IN.exec(remindIn);
  if (!m) return null;
  const unit = (m[2].toLowerCase().endsWith('s') ? m[2].toLowerCase() : `${m[2].toLowerCase()}s`) as keyof typeof UNIT_MS;
  return Number(m[1]) * UNIT_MS[unit] * (m[3].toLowerCase() === 'before' ? -1 : 1);
}

/** `remind_in` (`TaskType.reminder_setting.remind_in`): "<n> minutes|hours|days before|after" the due date, kept as `<n> <unit>s <before|after>`. */
export const RemindInSchema = z
  .string({ error: 'remind_in must be a string like "30 minutes before"' })
  .max(100, 'remind_in is too long')
  .transform((v, ctx) => {
    const m = REMIND_IN.exec(v);
    if (!m) {
      ctx.addIssue({ code: 'custom', message: 'remind_in must read "<n> minutes|hours|days before|after", e.g. "30 minutes before"' });
      return z.NEVER;
    }
    const unit = m[2].toLowerCase().endsWith('s') ? m[2].toLowerCase() : `${m[2].toLowerCase()}s`;
    return `${Number(m[1])} ${unit} ${m[3].toLowerCase()}`;
  });

/**
 * `reminder_setting` (`TaskType` of @periskope/types): `remind_in` sets remind_at relative to the due
 * date (and follows it when the due date moves); `repeat` makes the reminder repeat. Answered with
 * both keys (null where unset); null when neither is set.
 */
export const ReminderSettingSchema = z
  .object(
    {
      remind_in: RemindInSchema.nullable().optional(),
      repeat: ReminderRepeatSchema.nullable().optional(),
    },
    { error: 'reminder_setting must be an object {remind_in, repeat} or null' },
  )
  .transform((s) => (s.repeat || s.remind_in ? { remind_in: s.remind_in ?? null, repeat: s.repeat ?? null } : null));
export type ReminderSetting = z.infer<typeof ReminderSettingSchema>;
