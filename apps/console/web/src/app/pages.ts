import type { PageDef } from './page';
import { chatsPages } from '../pages/chats';
import { membersPages } from '../pages/members';
import { phonesPages } from '../pages/phones';

/** Every signed-in page, in navigation order. A new page: a folder under pages/ and one line here. */
export const PAGES: PageDef[] = [...phonesPages, ...chatsPages, ...membersPages];
