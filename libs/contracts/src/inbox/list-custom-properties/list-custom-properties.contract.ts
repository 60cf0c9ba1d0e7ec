import { z } from 'zod';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';
import { CustomPropertySchema } from '../custom-property/custom-property.schema';

export const ListCustomPropertiesResponse = z.object({
  count: z.number().int(),
  custom_properties: z.array(CustomPropertySchema),
});
export type ListCustomPropertiesResponse = z.infer<typeof ListCustomPropertiesResponse>;

export const ListCustomPropertiesRpc = defineRpc({
  subject: 'inbox.v1.custom-properties.list',
  service: 'inbox',
  request: z.object({ ctx: RequestContextSchema }),
  response: ListCustomPropertiesResponse,
});
export type ListCustomPropertiesRequest = z.infer<typeof ListCustomPropertiesRpc.request>;

export const ListCustomPropertiesRoute = defineRoute({
  operationId: 'getCustomProperties',
  method: 'GET',
  path: '/custom-properties',
  tag: 'custom properties',
  summary: "List the organization's custom properties",
  description: 'Every custom property definition of the organization (`tbl_custom_properties` rows), oldest first.',
  phone: 'none',
  rpc: ListCustomPropertiesRpc,
  successStatus: 200,
  response: ListCustomPropertiesResponse,
});
