import { z } from 'zod';
import { ChatIdListSchema } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

/** Most emails one request changes (chats: MAX_CHATS_PER_REQUEST). */
export const MAX_ACCESS_EMAILS = 200;

export const UpdateChatAccessBody = z.object({
  access: z
    .record(
      z.string().max(254, 'an email address is at most 254 characters'),
      z.boolean({ error: 'must be true (grant) or false (deny)' }),
      {
        error: 'access must be an object of member email → true | false',
      },
    )
    .refine((a) => Object.keys(a).length <= MAX_ACCESS_EMAILS, `access holds at most ${MAX_ACCESS_EMAILS} emails`),
  chat_ids: ChatIdListSchema,
  /** true: each chat's overrides become `access`; false or absent: `access` is merged into them. */
  replace: z.boolean().optional(),
});

export const UpdateChatAccessRpc = defineRpc({
  subject: 'members.v1.chats.access',
  service: 'members',
  request: z.object({ ctx: RequestContextSchema, body: UpdateChatAccessBody }),
  response: z.null(),
});
export type UpdateChatAccessRequest = z.infer<typeof UpdateChatAccessRpc.request>;

export const UpdateChatAccessRoute = defineRoute({
  operationId: 'updateChatOverrideAccess',
  method: 'PATCH',
  path: '/chats/access',
  tag: 'chats',
  summary: "Override members' access to chats",
  description:
    'Per chat and per member email: true shows the chat to that member whatever their phones and labels, false hides it. ' +
    "replace true makes each chat's overrides exactly `access` ({} clears them); false or absent merges `access` into them. " +
    'An email that is not a member of the organization is 422 naming it (body.access.<email>). All or nothing: when any id ' +
    "is not a chat a phone in reach has (missing, or another organization's), 404 NOT_FOUND_ERROR and nothing changes. " +
    'Owners and admins only (403 for a member). Recorded in the audit trail. Answers 204.',
  body: UpdateChatAccessBody,
  phone: 'optional',
  role: 'admin',
  rpc: UpdateChatAccessRpc,
  successStatus: 204,
});
