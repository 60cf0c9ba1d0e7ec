import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import {
  CustomPropertySchema,
  PropertyNameSchema,
  PropertyOptionsSchema,
  PropertyValueTypeSchema,
  propertyOptions,
} from '../custom-property/custom-property.schema';

/** Most custom properties an organization defines. */
export const MAX_CUSTOM_PROPERTIES = 500;

export const CreateCustomPropertyBody = z
  .object({
    property_name: PropertyNameSchema,
    property_value_type: PropertyValueTypeSchema.default('text'),
    property_value: z.union([z.null(), PropertyOptionsSchema]).optional(),
    is_required: z.boolean({ error: 'is_required must be a boolean' }).optional(),
    type: z.enum(['chat', 'ticket'], { error: 'type must be chat or ticket (contacts have no custom properties)' }).optional(),
  })
  .superRefine((b, ctx) => {
    const options = b.property_value == null ? [] : propertyOptions(b.property_value);
    if (b.property_value_type === 'dropdown' && !options.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['property_value'],
        message: 'a dropdown needs its options: property_value, comma-separated or an array',
      });
    }
    if (b.property_value_type !== 'dropdown' && options.length) {
      ctx.addIssue({ code: 'custom', path: ['property_value'], message: 'property_value (the options) is only for dropdown properties' });
    }
  });

export const CreateCustomPropertyRpc = defineRpc({
  subject: 'inbox.v1.custom-properties.create',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, body: CreateCustomPropertyBody }),
  response: CustomPropertySchema,
});
export type CreateCustomPropertyRequest = z.infer<typeof CreateCustomPropertyRpc.request>;

export const CreateCustomPropertyRoute = defineRoute({
  operationId: 'createCustomProperty',
  method: 'POST',
  path: '/custom-properties/create',
  tag: 'custom properties',
  summary: 'Define a custom property of chats or tickets',
  description:
    'type is chat (default: set with PATCH /chats/{chat_id}) or ticket (set with PATCH /tickets/{ticket_id}). property_value_type is text (default), number, boolean, date or dropdown; a dropdown lists its options in ' +
    "property_value (comma-separated, or an array). is_required (default false): a chat's or ticket's value of it cannot be " +
    `cleared. property_name is unique in the organization regardless of case (422 otherwise); at most ${MAX_CUSTOM_PROPERTIES} ` +
    'properties per organization.',
  body: CreateCustomPropertyBody,
  phone: 'none',
  rpc: CreateCustomPropertyRpc,
  successStatus: 200,
  response: CustomPropertySchema,
});
