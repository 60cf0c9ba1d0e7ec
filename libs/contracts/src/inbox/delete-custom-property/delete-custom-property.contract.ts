import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { CustomPropertySchema, PropertyIdParams } from '../custom-property/custom-property.schema';

export const DeleteCustomPropertyRpc = defineRpc({
  subject: 'inbox.v1.custom-properties.delete',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema, params: PropertyIdParams }),
  response: CustomPropertySchema,
});
export type DeleteCustomPropertyRequest = z.infer<typeof DeleteCustomPropertyRpc.request>;

export const DeleteCustomPropertyRoute = defineRoute({
  operationId: 'deleteCustomProperty',
  method: 'DELETE',
  path: '/custom-properties/{property_id}',
  tag: 'custom properties',
  summary: 'Delete a custom property and its values',
  description:
    "Removes the definition and every chat's value of it (no chat.custom_properties.updated is emitted for them); " +
    'answers the deleted definition. A property of another organization, or one already deleted, is 404.',
  params: PropertyIdParams,
  phone: 'none',
  rpc: DeleteCustomPropertyRpc,
  successStatus: 200,
  response: CustomPropertySchema,
});
