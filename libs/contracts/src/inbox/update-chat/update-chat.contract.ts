import { z } from 'zod';
import { atLeastOneOf } from '../../common/at-least-one';
import { RequestContextSchema } from '../../common/request-context';
import { GetChatParams } from '../../chats/get-chat/get-chat.contract';
import { ChatViewSchema } from '../../chats/chat/chat-view.schema';
import { LabelsSchema } from '../../chats/contacts/contact.schema';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { AssigneeSchema } from '../ticket/ticket-info.schema';

const KEYS = ['labels', 'custom_properties', 'assigned_to'] as const;

/** Most properties one request sets; longest value. */
export const MAX_PROPERTY_VALUES = 100;
export const MAX_PROPERTY_VALUE_LENGTH = 2000;

/** A property's new value: a string (numbers and booleans are read as their text); null or '' clears it. */
const PropertyValueSchema = z.union(
  [
    z.null(),
    z.string().max(MAX_PROPERTY_VALUE_LENGTH, `a value is at most ${MAX_PROPERTY_VALUE_LENGTH} characters`),
    z.number().transform(String),
    z.boolean().transform(String),
  ],
  { error: 'a custom property value must be a string (or null to clear it)' },
);

/** property name (any case) or id → value; checked against the definitions by the service (422 per key). */
export const CustomPropertyValuesSchema = z
  .record(z.string().min(1, 'a property key must not be empty').max(100, 'a property key is at most 100 characters'), PropertyValueSchema, {
    error: 'custom_properties must be an object of property name or id to value',
  })
  .refine((r) => Object.keys(r).length <= MAX_PROPERTY_VALUES, {
    message: `custom_properties holds at most ${MAX_PROPERTY_VALUES} properties`,
  });

export const UpdateChatBody = z
  .object({
    assigned_to: z
      .union([z.literal('').transform(() => null), z.null(), AssigneeSchema], {
        error: 'assigned_to must be an email address, or null / "" to unassign',
      })
      .optional(),
    custom_properties: CustomPropertyValuesSchema.optional(),
    labels: LabelsSchema.optional(),
  })
  .superRefine(atLeastOneOf(KEYS));
export type UpdateChatBody = z.infer<typeof UpdateChatBody>;

export const UpdateChatRpc = defineRpc({
  subject: 'inbox.v1.chats.update',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: GetChatParams, body: UpdateChatBody }),
  response: ChatViewSchema,
});
export type UpdateChatRequest = z.infer<typeof UpdateChatRpc.request>;

export const UpdateChatRoute = defineRoute({
  operationId: 'updateChat',
  method: 'PATCH',
  path: '/chats/{chat_id}',
  tag: 'chats',
  summary: "Set a chat's labels, custom properties or assignee",
  description:
    'At least one of labels, custom_properties, assigned_to (422 on each otherwise). labels (comma-separated, ' +
    "case-insensitive) replaces the chat's labels, creating unknown ones. custom_properties maps a property's name " +
    '(case-insensitive) or id to its value, checked against the definition (unknown property, wrong type, a value not ' +
    'among a dropdown\'s options: 422 on body.custom_properties.<key>); null or "" clears a value, except of a required ' +
    'property. assigned_to is an email (null or "" unassigns). Values are the organization\'s, shared by its phones ' +
    "that hold the chat. A chat no phone in reach has (missing, another organization's) is 404 and nothing changes. " +
    'Answers the chat as GET /chats/{chat_id}; emits chat.label.updated and chat.custom_properties.updated when those changed.',
  params: GetChatParams,
  body: UpdateChatBody,
  phone: 'optional',
  rpc: UpdateChatRpc,
  successStatus: 200,
  response: ChatViewSchema,
});
