import { Link } from '../../app/Link';
import { digits, type Chat } from '../../api/types';

export const chatTitle = (chat: Chat): string => chat.chat_name || chat.name || chat.contact_name || digits(chat.chat_id);
export const chatPath = (chat: Pick<Chat, 'chat_id' | 'org_phone'>): string => `/chats/${encodeURIComponent(chat.chat_id)}?phone=${digits(chat.org_phone)}`;

/** The chats, most recent first; the open one is marked. */
export function ChatList({ chats, openId }: { chats: Chat[]; openId?: string }) {
  if (chats.length === 0) return <p>No chats yet.</p>;
  return (
    <ul className="chat-list" aria-label="Chats">
      {chats.map((chat) => (
        <li key={`${chat.org_phone}/${chat.chat_id}`}>
          <Link to={chatPath(chat)} aria-current={chat.chat_id === openId ? 'page' : undefined} data-chat-id={chat.chat_id}>
            <span className="chat-title">{chatTitle(chat)}</span>
            <span className="muted preview">{chat.latest_message?.body ?? ''}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
