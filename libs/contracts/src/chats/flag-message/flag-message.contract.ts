import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRpc } from '../../rpc/define-rpc';
import { MessageSchema } from '../message/message.schema';
import { MessageRefParams } from '../message-ref/message-ref';

export const FlagMessageBody = z.object({ flag: z.boolean() });

/**
 * Internal (no public route yet; workflows' flag_message / unflag_message call it): sets the message's
 * flag_status (flag_metadata {status, flagged_by, flagged_at} when flagging; status false with
 * response_type manual, response_timestamp and response_email when clearing) on every copy the
 * organization's phones hold, and emits message.flagged / message.unflagged with previous_attributes
 * flag_status. A message already in that state changes nothing and emits nothing (a retry is harmless).
 * Answers the message as it is after.
 */
export const FlagMessageRpc = defineRpc({
  subject: 'chats.v1.message.flag',
  service: 'chats',
  request: z.object({ ctx: RequestContextSchema, params: MessageRefParams, body: FlagMessageBody }),
  response: MessageSchema,
});
export type FlagMessageRequest = z.infer<typeof FlagMessageRpc.request>;
