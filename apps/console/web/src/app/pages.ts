import type { PageDef } from './page';
import { analyticsPages } from '../pages/analytics';
import { apiTokensPages } from '../pages/api-tokens';
import { chatsPages } from '../pages/chats';
import { dashboardPages } from '../pages/dashboard';
import { eventSinksPages } from '../pages/event-sinks';
import { importsPages } from '../pages/imports';
import { labelsPages } from '../pages/labels';
import { tasksPages } from '../pages/tasks';
import { knowledgeBasePages } from '../pages/knowledge-base';
import { membersPages } from '../pages/members';
import { phonesPages } from '../pages/phones';
import { queuePages } from '../pages/queue';
import { slaPages } from '../pages/sla';
import { ticketsPages } from '../pages/tickets';
import { webhooksPages } from '../pages/webhooks';

/** Every signed-in page, in navigation order. A new page: a folder under pages/ and one line here. */
export const PAGES: PageDef[] = [
  ...phonesPages,
  ...chatsPages,
  ...ticketsPages,
  ...dashboardPages,
  ...analyticsPages,
  ...slaPages,
  ...tasksPages,
  ...labelsPages,
  ...queuePages,
  ...knowledgeBasePages,
  ...webhooksPages,
  ...eventSinksPages,
  ...apiTokensPages,
  ...membersPages,
  ...importsPages,
];
