import { chatCopiesInReach, type ChatCopy, type RequestContext } from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';
import { phonesInReach } from './chat-lookup';

/**
 * A member's reach over the inbox's rows (docs/services/members.md, "What a member sees"): a ticket,
 * note or task of a chat is theirs only when the chat's copy (phone_id, chat_id) is within their
 * phones, labels and overrides, which the chats service decides (it owns chat_labels and
 * chat_properties): one chats.v1.chat.copies-in-reach call per row read or per page. Bearer tokens,
 * owners and admins: phones only, in the inbox's own queries, with no call.
 */
export interface ChatReachCheck {
  /** Of the given copies, those within the (member's) ctx's reach, as `phone_id\0chat_id` keys. */
  reached(ctx: RequestContext, copies: ChatCopy[]): Promise<Set<string>>;
}

export const isMember = (ctx: RequestContext): boolean => ctx.member?.role === 'member';

/** The phones the inbox's own queries narrow to: none for a member (their reach is checked per row). */
export const rowPhones = (ctx: RequestContext): string[] | null => (isMember(ctx) ? null : phonesInReach(ctx));

const key = (phoneId: string, chatId: string) => `${phoneId}\u0000${chatId}`;

interface ChatRow {
  phone_id: string | null;
  chat_id: string | null;
}

/** ChatReachCheck over `chats.v1.chat.copies-in-reach`. */
export class RpcChatReach implements ChatReachCheck {
  constructor(private readonly rpc: NatsRpcClient) {}

  async reached(ctx: RequestContext, copies: ChatCopy[]): Promise<Set<string>> {
    const reached = await chatCopiesInReach(this.rpc, ctx, copies);
    return new Set(reached.map((c) => key(c.phone_id, c.chat_id)));
  }
}

/**
 * The rows of `rows` a member may see: a row of a chat when that copy is within reach; a task of no
 * chat (a to-do) when it has no phone or one of the member's phones, as for anyone. Everyone else: all.
 */
export async function visibleRows<T extends ChatRow>(check: ChatReachCheck, ctx: RequestContext, rows: T[]): Promise<T[]> {
  if (!isMember(ctx) || !rows.length) return rows;
  const copies = rows.flatMap((r) => (r.phone_id && r.chat_id ? [{ phone_id: r.phone_id, chat_id: r.chat_id }] : []));
  const ok = copies.length
    ? await check.reached(ctx, [...new Map(copies.map((c) => [key(c.phone_id, c.chat_id), c])).values()])
    : new Set<string>();
  const phones = phonesInReach(ctx);
  return rows.filter((r) =>
    r.phone_id && r.chat_id ? ok.has(key(r.phone_id, r.chat_id)) : !r.phone_id || !phones || phones.includes(r.phone_id),
  );
}

/** One row, or null when a member may not see it (the caller answers 404 as for a missing one). */
export async function visibleRow<T extends ChatRow>(check: ChatReachCheck, ctx: RequestContext, row: T | null): Promise<T | null> {
  if (!row) return null;
  return (await visibleRows(check, ctx, [row]))[0] ?? null;
}

/**
 * A page (offset, limit) of the rows a member may see, read in batches from `fetch` (the inbox's own
 * order) and checked one batch per call, until the page is full or the rows run out. Everyone else:
 * `fetch(offset, limit)` as it was.
 */
export async function visiblePage<T extends ChatRow>(
  check: ChatReachCheck,
  ctx: RequestContext,
  fetch: (offset: number, limit: number) => Promise<T[]>,
  offset: number,
  limit: number,
): Promise<T[]> {
  if (!isMember(ctx)) return fetch(offset, limit);
  const batch = Math.min(1000, Math.max(100, 2 * (offset + limit)));
  const page: T[] = [];
  let skipped = 0;
  for (let read = 0; ;) {
    const rows = await fetch(read, batch);
    read += rows.length;
    for (const row of await visibleRows(check, ctx, rows)) {
      if (skipped < offset) skipped += 1;
      else if (page.push(row) === limit) return page;
    }
    if (rows.length < batch) return page;
  }
}
