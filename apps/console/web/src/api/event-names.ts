/**
 * The event names a webhook can subscribe to: the contracts' EVENT_NAMES, copied so that the bundle
 * carries no schema code (a unit test, event-names.spec.ts, keeps the two lists equal).
 */
export const EVENT_NAMES = [
  'chat.created',
  'chat.notification.created',
  'message.created',
  'message.updated',
  'message.deleted',
  'message.ack.updated',
  'message.ticket.attached',
  'message.flagged',
  'message.unflagged',
  'reaction.created',
  'reaction.updated',
  'ticket.created',
  'ticket.updated',
  'ticket.deleted',
  'org.phone.updated',
  'org.phone.connected',
  'org.phone.disconnected',
  'org.phone.qr',
  'note.created',
  'chat.custom_properties.updated',
  'chat.label.updated',
  'task.created',
  'task.updated',
  'task.deleted',
  'task.reminder',
  'workflow.run.completed',
  'workflow.run.failed',
  'webhook.subscription.disabled',
] as const;
