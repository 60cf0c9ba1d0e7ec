import type { ChatWithProperties, EventInput } from '@mapi/contracts';
import type { PropertyChange } from '../repositories/chat-properties-repository';
import type { ChatPropertyValues, PhoneChatRow } from '../rows/chat-rows';
import { mapChat } from './map-chat';

const asMap = (labelIds: string[]): Record<string, boolean> => Object.fromEntries(labelIds.map((id) => [id, true]));

/** The events' object: the chat's tbl_chats columns (of the given copy) with the organization's values. */
export function withProperties(copy: PhoneChatRow, v: ChatPropertyValues): ChatWithProperties {
  return { ...mapChat(copy), custom_properties: v.custom_properties, label_ids: asMap(v.label_ids), assigned_to: v.assigned_to };
}

/**
 * A chat's property change as events: chat.label.updated when its labels changed (previous: the labels
 * before), chat.custom_properties.updated when its values did (previous: the values before), each with
 * the chat and its values after. An assignee or access change alone announces nothing.
 */
export function chatPropertyEvents(orgId: string, { copy, before, after, labels, custom }: PropertyChange): EventInput[] {
  const data = withProperties(copy, after);
  const events: EventInput[] = [];
  if (labels)
    events.push({
      type: 'chat.label.updated',
      org_id: orgId,
      phone_id: copy.phone_id,
      data,
      previous: { label_ids: asMap(before.label_ids) },
    });
  if (custom)
    events.push({
      type: 'chat.custom_properties.updated',
      org_id: orgId,
      phone_id: copy.phone_id,
      data,
      previous: { custom_properties: before.custom_properties },
    });
  return events;
}
