import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { MessageSchema } from '../message/message.schema';
import { MessageRefParams } from '../message-ref/message-ref';

/** PUT /message/{message_id}/flag: what a member (or a token) sets. */
export const FlagMessageRouteBody = z.strictObject({ flag: z.boolean({ error: 'flag must be true or false' }) });

/**
 * The RPC's body: the route's, and what the analytics service's flagging adds (docs/services/analytics.md
 * "Flagging"): the reason and who flagged (a rule, the model), the reply that answered a flagged message,
 * and `unless_flagged_before` (a rule flags a message at most once: not again after someone cleared it).
 */
export const FlagMessageBody = z.object({
  flag: z.boolean(),
  reason: z.string().max(1000).optional(),
  flagged_by: z.string().min(1).max(200).optional(),
  rule_id: z.string().max(200).optional(),
  unless_flagged_before: z.boolean().optional(),
  response: z
    .object({
      type: z.literal('message'),
      response_id: z.string().min(1).max(512),
      response_timestamp: z.string(),
      response_phone: z.string().nullable(),
    })
    .optional(),
});

/**
 * Sets the message's flag_status (flag_metadata {status, flagged_by, flagged_at[, reason, rule_id]} when
 * flagging; status false with response_type manual (or message, for a reply), response_timestamp and
 * response_email (response_id, response_phone) when clearing) on every copy the organization's phones hold,
 * and emits message.flagged / message.unflagged with previous_attributes flag_status. A message already in
 * that state changes nothing and emits nothing (a retry is harmless). Answers the message as it is after.
 * Callers: PUT /message/{message_id}/flag, workflows' flag_message, the analytics service's flagging.
 */
export const FlagMessageRpc = defineRpc({
  subject: 'chats.v1.message.flag',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, params: MessageRefParams, body: FlagMessageBody }),
  response: MessageSchema,
});
export type FlagMessageRequest = z.infer<typeof FlagMessageRpc.request>;

export const FlagMessageRoute = defineRoute({
  operationId: 'flagMessage',
  method: 'PUT',
  path: '/message/{message_id}/flag',
  tag: 'message',
  summary: 'Flag or unflag a message',
  description:
    'Ours (issue 34): `{"flag": true}` flags the message as needing attention, `{"flag": false}` clears its flag (response_type ' +
    'manual, response_email the member or the token); on every copy the organization holds. A change fires message.flagged or ' +
    'message.unflagged once; a message already in that state is answered unchanged. Any member within reach of the chat. ' +
    "A message no phone within reach holds is 404 (another organization's too).",
  params: MessageRefParams,
  body: FlagMessageRouteBody,
  phone: 'optional',
  rpc: FlagMessageRpc,
  successStatus: 200,
  response: MessageSchema,
});
