import { useLocation } from '../../app/router';
import { ErrorNote } from '../../components/ErrorNote';
import { ChatList } from './ChatList';
import { ChatView } from './ChatView';
import { useChats } from './use-chats';

/** The chats page: the list of chats, and the open one's messages (phone from ?phone=). */
export function ChatsPage({ chatId }: { chatId?: string }) {
  const { chats, error } = useChats();
  const phone = useLocation().query.get('phone') ?? '';
  return (
    <div className="chats">
      <div className="chat-column">
        <ErrorNote error={error} />
        {chats === null && !error ? <p role="status">Loading chats…</p> : <ChatList chats={chats ?? []} openId={chatId} />}
      </div>
      {chatId ? <ChatView key={`${phone}/${chatId}`} chatId={chatId} phone={phone} /> : <p className="muted">Choose a chat to read its messages.</p>}
    </div>
  );
}
