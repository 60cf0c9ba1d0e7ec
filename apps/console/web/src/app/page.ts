import type { ReactNode } from 'react';

/**
 * One page of the console. Each lives in its own folder under pages/ and exports its definitions
 * from index.ts; app/pages.ts lists them. `nav` puts it in the navigation; `adminOnly` hides it
 * (and refuses it) for members — the API refuses their calls regardless.
 */
export interface PageDef {
  /** `/phones`, `/chats/:chat_id` (below the console's base path). */
  path: string;
  nav?: string;
  /** The page's heading when it is not its navigation entry (pages below another). */
  title?: string;
  adminOnly?: boolean;
  /** Only for owners (an import writes the whole organization): hidden and refused for admins and members too. */
  ownerOnly?: boolean;
  render(params: Record<string, string>): ReactNode;
}
