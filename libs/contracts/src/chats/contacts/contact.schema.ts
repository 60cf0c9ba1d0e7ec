import { z } from 'zod';

const nullableString = z.string().nullable();
const nullableBoolean = z.boolean().nullable();

const CONTACT_ID = /^([0-9]{6,20})(@c\.us)?$/;

/**
 * A contact id: phone digits (country code + number) or `<digits>@c.us`, stored as `<digits>@c.us`
 * (spec 1, rule 6). A group id is not a contact.
 */
export const ContactIdSchema = z
  .string({ error: 'contact_id must be a string' })
  .min(1, 'contact_id must not be empty')
  .transform((v, ctx) => {
    const m = CONTACT_ID.exec(v.trim());
    if (!m) {
      ctx.addIssue({ code: 'custom', message: 'contact_id must be phone digits (country code + number), optionally followed by @c.us' });
      return z.NEVER;
    }
    return `${m[1]}@c.us`;
  });

/**
 * Label names from the public client's form: one comma-separated string, case-insensitive. Stored
 * and answered as plain names, lower-cased, trimmed, without repeats ('' clears them). Label objects
 * (ids, colours) come with the team inbox; until then a label is its name.
 */
export function labelNames(labels: string): string[] {
  return [
    ...new Set(
      labels
        .split(',')
        .map((l) => l.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/**
 * `labels` as the public client sends it (a comma-separated string). Kept a string in the request
 * (the service validates the same request again), read with labelNames.
 */
export const LabelsSchema = z
  .string({ error: 'labels must be a comma-separated string' })
  .max(2000, 'labels must be at most 2000 characters')
  .refine((v) => labelNames(v).every((n) => n.length <= 100), { message: 'each label must be at most 100 characters' });

/** A name given through the API: trimmed, not empty. */
export const ContactNameSchema = z
  .string({ error: 'contact_name must be a string' })
  .trim()
  .min(1, 'contact_name must not be empty')
  .max(200, 'contact_name must be at most 200 characters');

/**
 * The contact object: `ContactType` of @periskope/types (the `tbl_contacts` row with `chats` and
 * `chat_ids`). Every field it declares is present; what this service does not keep is null.
 * `contact_name` is the name set through the API, else the network's push name; `periskope_name`
 * the API's alone, `pushname` the network's alone. `label_ids` maps each label name to true;
 * `labels` lists the same names. `chat_ids` (the 1-1 chat and the groups shared with the contact,
 * within the caller's phones) is given by the single-contact answers; `chats` is null.
 */
export const ContactSchema = z.object({
  business_profile: z.unknown().nullable(),
  contact_color: nullableString,
  contact_id: z.string(),
  contact_image: nullableString,
  contact_lid: nullableString,
  contact_name: nullableString,
  contact_type: nullableString,
  id: z.unknown().nullable(),
  is_blocked: nullableBoolean,
  is_business: nullableBoolean,
  is_enterprise: nullableBoolean,
  is_group: nullableBoolean,
  is_imported: nullableBoolean,
  is_internal: nullableBoolean,
  is_me: nullableBoolean,
  is_my_contact: nullableBoolean,
  is_user: nullableBoolean,
  is_wa_contact: nullableBoolean,
  label_ids: z.record(z.string(), z.boolean()),
  labels: z.array(z.string()),
  name: nullableString,
  number: nullableString,
  org_id: z.uuid(),
  periskope_name: nullableString,
  pushname: nullableString,
  short_name: nullableString,
  updated_at: nullableString,
  verified_level: z.number().nullable(),
  verified_name: nullableString,
  chats: z.null(),
  chat_ids: z.array(z.string()).optional(),
});
export type Contact = z.infer<typeof ContactSchema>;
