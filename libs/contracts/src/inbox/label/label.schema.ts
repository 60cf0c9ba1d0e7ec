import { z } from 'zod';

/** What a label is put on. Chats' labels are the catalogue's; tickets and contacts keep label names for now. */
export const LABEL_TYPES = ['chat', 'ticket', 'contact'] as const;
export const LabelTypeSchema = z.enum(LABEL_TYPES, { error: 'type must be one of chat, ticket, contact' });

/** A label's name: trimmed, 1–100 characters, case-insensitive (kept lower case). */
export const LabelNameSchema = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, 'name must not be empty')
  .max(100, 'name is at most 100 characters')
  .refine((v) => !v.includes(','), { message: 'name must not contain a comma (labels are given comma-separated)' })
  .transform((v) => v.toLowerCase());

/** `#rrggbb`, kept lower case. */
export const LabelColorSchema = z
  .string({ error: 'color must be a string' })
  .trim()
  .refine((v) => /^#[0-9a-fA-F]{6}$/.test(v), { message: 'color must be a hex colour like #1e88e5' })
  .transform((v) => v.toLowerCase());

/** The colour of a label created without one (and of labels created by naming them on a chat). */
export const DEFAULT_LABEL_COLOR = '#9e9e9e';

/** An organization's label: the `tbl_org_labels` row of @periskope/types. */
export const LabelSchema = z.object({
  label_id: z.uuid(),
  org_id: z.uuid(),
  /** lower case, unique per organization and type */
  name: z.string(),
  color: z.string(),
  type: z.string(),
  created_at: z.string(),
});
export type Label = z.infer<typeof LabelSchema>;

/** `label_id`: the UUID the label was created with. */
export const LabelIdParams = z.object({ label_id: z.uuid({ error: 'label_id must be a UUID' }) });
