import { z } from 'zod';

/**
 * A message template approved for the phone's WhatsApp Business Account (Cloud API phones only):
 * the only kind of message the Cloud API takes outside the 24-hour customer-service window.
 * `parameters` fill the body's {{1}}, {{2}}, … in order.
 */
export const MessageTemplateSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9_]{1,512}$/, "name is the template's name: lower-case letters, digits and _"),
  language: z.string().regex(/^[A-Za-z_]{2,15}$/, 'language is a locale code such as en or en_US'),
  parameters: z.array(z.string().min(1).max(1024)).max(100).optional(),
});
export type MessageTemplate = z.infer<typeof MessageTemplateSchema>;
