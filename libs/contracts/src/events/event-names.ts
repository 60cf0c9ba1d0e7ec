/** Catalogue of event (webhook integration) names, from the wider public API (../shared/reference/wider-api.md). */
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
  // the hosted service's name for a chat's labels changing (enum_integration_name of @periskope/types)
  'chat.label.updated',
  // ours: tasks (issue 17 item 4; the public catalogue has no task events) — docs/services/inbox.md
  'task.created',
  'task.updated',
  'task.deleted',
  'task.reminder',
  // ours: workflow runs ending (automation service, issue 19) — docs/services/automation.md
  'workflow.run.completed',
  'workflow.run.failed',
  // ours: an SLA deadline passed without a reply (analytics service, issue 34) — docs/services/analytics.md
  'sla.breached',
  // ours: a subscription disabled after a 410 or five days of failures (webhooks-dispatcher)
  'webhook.subscription.disabled',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];
