import { AUTOMATION_ROUTES } from './automation';
import { CHATS_ROUTES } from './chats';
import { GROUPS_ROUTES } from './groups';
import { IMPORTS_ROUTES } from './imports';
import { INBOX_ROUTES } from './inbox';
import type { RouteContract } from './http/define-route';
import { KNOWLEDGE_BASE_ROUTES } from './knowledge-base';
import { MEDIA_ROUTES } from './media';
import { MEMBERS_ROUTES } from './members';
import { PHONES_ROUTES } from './phones';
import { QUEUE_ROUTES } from './queue';
import { WEBHOOKS_ROUTES } from './webhooks';
import { ANALYTICS_ROUTES } from './analytics';

/** Every public route the gateway serves; the OpenAPI document is generated from this list. */
export const ROUTES: readonly RouteContract[] = [
  ...CHATS_ROUTES,
  ...PHONES_ROUTES,
  ...GROUPS_ROUTES,
  ...QUEUE_ROUTES,
  ...KNOWLEDGE_BASE_ROUTES,
  ...WEBHOOKS_ROUTES,
  ...MEDIA_ROUTES,
  ...INBOX_ROUTES,
  ...MEMBERS_ROUTES,
  ...AUTOMATION_ROUTES,
  ...IMPORTS_ROUTES,
  ...ANALYTICS_ROUTES,
];
