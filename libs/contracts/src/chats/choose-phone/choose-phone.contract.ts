import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRpc } from '../../rpc/define-rpc';

/**
 * Internal (no HTTP route): which phone acts on a chat when `x-phone` is omitted (spec 4.4). Used by
 * every service with chat actions (groups, queue). See ChooseActingPhone for the rule.
 */
export const ChoosePhoneRpc = defineRpc({
  subject: 'chats.v1.choose-phone',
  service: 'chats',
  request: z.object({
    ctx: RequestContextSchema,
    chat_id: z.string().min(1),
    /** Group actions that need admin rights (add, remove, promote, demote). */
    need_admin: z.boolean().default(false),
  }),
  response: z.object({ phone_id: z.string(), org_phone: z.string() }),
});
export type ChoosePhoneRequest = z.infer<typeof ChoosePhoneRpc.request>;
export type ChoosePhoneResponse = z.infer<typeof ChoosePhoneRpc.response>;
