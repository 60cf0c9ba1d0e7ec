import type { RouteContract } from '../http/define-route';
import { CreateCustomPropertyRoute } from './create-custom-property/create-custom-property.contract';
import { CreateLabelRoute } from './create-label/create-label.contract';
import { DeleteLabelRoute } from './delete-label/delete-label.contract';
import { UpdateLabelRoute } from './update-label/update-label.contract';
import { DeleteCustomPropertyRoute } from './delete-custom-property/delete-custom-property.contract';
import { ListCustomPropertiesRoute } from './list-custom-properties/list-custom-properties.contract';
import { ListLabelsRoute } from './list-labels/list-labels.contract';
import { UpdateChatLabelsRoute } from './update-chat-labels/update-chat-labels.contract';
import { UpdateChatRoute } from './update-chat/update-chat.contract';
import { UpdateCustomPropertyRoute } from './update-custom-property/update-custom-property.contract';

export * from './label/label.schema';
export * from './list-labels/list-labels.contract';
export * from './create-label/create-label.contract';
export * from './update-label/update-label.contract';
export * from './delete-label/delete-label.contract';
export * from './custom-property/custom-property.schema';
export * from './list-custom-properties/list-custom-properties.contract';
export * from './create-custom-property/create-custom-property.contract';
export * from './update-custom-property/update-custom-property.contract';
export * from './delete-custom-property/delete-custom-property.contract';
export * from './update-chat-labels/update-chat-labels.contract';
export * from './update-chat/update-chat.contract';

/** The inbox's label, custom property and chat-property routes (issue 17 item 5). */
export const LABELS_ROUTES: readonly RouteContract[] = [
  ListLabelsRoute,
  CreateLabelRoute,
  UpdateLabelRoute,
  DeleteLabelRoute,
  ListCustomPropertiesRoute,
  CreateCustomPropertyRoute,
  UpdateCustomPropertyRoute,
  DeleteCustomPropertyRoute,
  UpdateChatLabelsRoute,
  UpdateChatRoute,
];
