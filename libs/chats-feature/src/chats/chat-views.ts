import type { ChatView } from '@mapi/contracts';
import type { ChatViewRow, GroupMemberRow } from '../rows/chat-rows';
import type { ChatViewRepository } from '../repositories/chat-view-repository';
import type { MessageRepository } from '../repositories/message-repository';
import { mapChatView } from './map-chat';

/**
 * Chat rows to chat objects: their latest messages in one read, group members in one more, then
 * mapChatView. A group whose participants no phone has reported yet has `members: null`.
 */
export async function toChatViews(
  orgId: string,
  rows: ChatViewRow[],
  chats: ChatViewRepository,
  messages: MessageRepository,
  readerEmail: string | null = null,
): Promise<ChatView[]> {
  const groups = rows.filter((r) => r.chat_type === 'group');
  const [latest, members] = await Promise.all([
    messages.byIds(
      orgId,
      rows.flatMap((r) => (r.latest_message_id ? [r.latest_message_id] : [])),
    ),
    chats.members(orgId, groups),
  ]);
  const byChat = new Map<string, GroupMemberRow[]>();
  for (const m of members) {
    const key = `${m.phone_id}\u0000${m.chat_id}`;
    const list = byChat.get(key);
    if (list) list.push(m);
    else byChat.set(key, [m]);
  }
  return rows.map((r) =>
    mapChatView(
      r,
      (r.latest_message_id && latest.get(r.latest_message_id)) || null,
      byChat.get(`${r.phone_id}\u0000${r.chat_id}`) ?? null,
      readerEmail,
    ),
  );
}

/** The phones a request reaches: the x-phone phone, else the token's scope (null: every phone of the organization). */
export const phonesInReach = (ctx: { phone: { phone_id: string } | null; phone_scope: string[] | null }): string[] | null =>
  ctx.phone ? [ctx.phone.phone_id] : ctx.phone_scope;
