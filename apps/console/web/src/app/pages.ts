import type { PageDef } from './page';
import { chatsPages } from '../pages/chats';
import { knowledgeBasePages } from '../pages/knowledge-base';
import { membersPages } from '../pages/members';
import { phonesPages } from '../pages/phones';
import { queuePages } from '../pages/queue';
import { ticketsPages } from '../pages/tickets';
import { webhooksPages } from '../pages/webhooks';

/** Every signed-in page, in navigation order. A new page: a folder under pages/ and one line here. */
export const PAGES: PageDef[] = [...phonesPages, ...chatsPages, ...ticketsPages, ...queuePages, ...knowledgeBasePages, ...webhooksPages, ...membersPages];
