import { randomUUID } from 'node:crypto';
import type { ChatNotification, GroupParticipantAction } from '@mapi/contracts';

/**
 * The chat notification a participant action through the API causes (the wider API's
 * tbl_chat_notifications columns): the acting phone is the author, the changed participants the
 * recipients. The network's own notification id is not known here, so the id is a new UUID.
 * `notification_type`, `participants` and `performed_by` are kept from the first version of this event.
 */
export function participantsNotification(
  action: GroupParticipantAction,
  chatId: string,
  orgId: string,
  orgPhone: string,
  changed: string[],
): ChatNotification {
  return {
    notification_id: randomUUID(),
    chat_id: chatId,
    org_id: orgId,
    org_phone: orgPhone,
    type: action,
    author: orgPhone,
    recipientids: changed,
    body: null,
    id: null,
    metadata: null,
    unique_id: null,
    timestamp: new Date().toISOString(),
    notification_type: `group.${action}`,
    participants: changed,
    performed_by: orgPhone,
  };
}
