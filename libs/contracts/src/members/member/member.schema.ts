import { z } from 'zod';

/** `enum_chat_colors` of @periskope/types: the colours a member may be shown in. */
export const MEMBER_COLORS = [
  '#B4876E',
  '#A5B337',
  '#06CF9C',
  '#25D366',
  '#02A698',
  '#7D9EF1',
  '#007BFC',
  '#5E47DE',
  '#7F66FF',
  '#9333EA',
  '#FA6533',
  '#C4532D',
  '#DC2626',
  '#FF2E74',
  '#DB2777',
] as const;

/** A member row as the public client types it (`tbl_org_members` of @periskope/types). */
export const MemberRowSchema = z.object({
  created_at: z.string().nullable(),
  email: z.string(),
  invited_at: z.string().nullable(),
  invited_by: z.string().nullable(),
  /** true once the invitation is accepted (the member can sign in). */
  is_active: z.boolean(),
  is_online: z.boolean().nullable(),
  /** The organization's owner (shown with role admin: the client's roles are admin | member). */
  is_owner: z.boolean().nullable(),
  /** Lower-case label names; null = every label. */
  label_ids: z.array(z.string()).nullable(),
  member_color: z.enum(MEMBER_COLORS),
  member_image: z.string().nullable(),
  member_metadata: z.unknown().nullable(),
  member_name: z.string().nullable(),
  org_id: z.string(),
  /** The phones a member reaches (number@c.us, or the phone_id of a phone without a number); null = every phone. */
  org_phones: z.array(z.string()).nullable(),
  preferences: z.unknown(),
  role: z.enum(['admin', 'member']),
  /** The member's id: what DELETE /members/{id} takes (besides the email). */
  user_id: z.string().nullable(),
});
export type MemberRow = z.infer<typeof MemberRowSchema>;

/** An email address, compared and stored in lower case. */
export const EmailSchema = z
  .string({ error: 'must be an email address' })
  .trim()
  .max(254, 'an email address is at most 254 characters')
  .pipe(z.email({ error: 'must be an email address' }))
  .transform((e) => e.toLowerCase());

export const EmailsSchema = z
  .array(EmailSchema, { error: 'emails must be an array of email addresses' })
  .min(1, 'emails must name at least one address')
  .max(50, 'at most 50 emails at a time');

/** Label names (not ids), kept in lower case; null = every label. */
export const LabelNamesSchema = z
  .array(
    z
      .string({ error: 'a label must be a string' })
      .trim()
      .min(1, 'a label must not be empty')
      .max(100, 'a label is at most 100 characters')
      .transform((l) => l.toLowerCase()),
    { error: 'labels must be an array of label names or null' },
  )
  .max(100, 'at most 100 labels');

/** Phone numbers without @c.us (a phone_id is taken too); null = every phone. */
export const OrgPhonesSchema = z
  .array(
    z
      .string({ error: 'a phone must be a string' })
      .trim()
      .min(1, 'a phone must not be empty')
      .max(100, 'a phone is at most 100 characters'),
    {
      error: 'orgPhones must be an array of phone numbers or null',
    },
  )
  .max(100, 'at most 100 phones');

/** What a member may reach, as given to invite and access changes (null = all). */
export interface AccessInput {
  labels?: string[] | null;
  orgPhones?: string[] | null;
}
