import type { ChatView } from '@mapi/contracts';
import type { ChatViewRepository, ChatViewRow, GroupMemberRow } from '../repositories/chat-view-repository';
import { mapChatView } from './map-chat';

/**
 * Chat rows (their latest messages already in them) to chat objects: group members in one read,
 * then mapChatView. A group whose participants no phone has reported yet has `members: null`.
 */
export async function toChatViews(orgId: string, rows: ChatViewRow[], chats: ChatViewRepository): Promise<ChatView[]> {
  const groups = rows.filter((r) => r.chat_type === 'group');
  const members = groups.length ? await chats.members(orgId, groups) : [];
  const byChat = new Map<string, GroupMemberRow[]>();
  for (const m of members) {
    const key = `${m.phone_id}\u0000${m.chat_id}`;
    const list = byChat.get(key);
    if (list) list.push(m);
    else byChat.set(key, [m]);
  }
  return rows.map((r) =>
    mapChatView(r, r.latest, byChat.get(`${r.phone_id}\u0000${r.chat_id}`) ?? null),
  );
}

/** The phones a request reaches: the x-phone phone, else the token's scope (null: every phone of the organization). */
export const phonesInReach = (ctx: { phone: { phone_id: string } | null; phone_scope: string[] | null }): string[] | null =>
  ctx.phone ? [ctx.phone.phone_id] : ctx.phone_scope;
