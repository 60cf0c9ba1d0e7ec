import { z } from 'zod';
import { atLeastOneOf } from '../../common/at-least-one';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import {
  CustomPropertySchema,
  PropertyIdParams,
  PropertyNameSchema,
  PropertyOptionsSchema,
  PropertyValueTypeSchema,
} from '../custom-property/custom-property.schema';

const KEYS = ['property_name', 'property_value', 'is_required'] as const;

export const UpdateCustomPropertyBody = z
  .object({
    property_name: PropertyNameSchema.optional(),
    property_value: PropertyOptionsSchema.optional(),
    is_required: z.boolean({ error: 'is_required must be a boolean' }).optional(),
    /** Cannot change; accepted only when it is the property's own type. */
    property_value_type: PropertyValueTypeSchema.optional(),
  })
  .superRefine(atLeastOneOf(KEYS));
export type UpdateCustomPropertyBody = z.infer<typeof UpdateCustomPropertyBody>;

export const UpdateCustomPropertyRpc = defineRpc({
  subject: 'inbox.v1.custom-properties.update',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: PropertyIdParams, body: UpdateCustomPropertyBody }),
  response: CustomPropertySchema,
});
export type UpdateCustomPropertyRequest = z.infer<typeof UpdateCustomPropertyRpc.request>;

export const UpdateCustomPropertyRoute = defineRoute({
  operationId: 'updateCustomProperty',
  method: 'PATCH',
  path: '/custom-properties/{property_id}',
  tag: 'custom properties',
  summary: 'Rename a custom property, change its options or whether it is required',
  description:
    "At least one of property_name, property_value (a dropdown's options, replacing them), is_required. The value type " +
    'cannot change (422). Values chats already hold are kept even when no longer an option; the next change of such a ' +
    "chat's properties must give an allowed value for it. A property of another organization is 404.",
  params: PropertyIdParams,
  body: UpdateCustomPropertyBody,
  phone: 'none',
  rpc: UpdateCustomPropertyRpc,
  successStatus: 200,
  response: CustomPropertySchema,
});
