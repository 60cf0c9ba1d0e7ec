import type { MouseEvent } from 'react';
import type { Message } from '../../api/types';
import { ForwardForm } from './ForwardForm';
import { MessageMedia } from './MessageMedia';
import { ackMark, excerpt, isEdited, type ReactionCount } from './conversation-view';

export const REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

const time = (iso: string | null) => (iso ? new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : '');

export interface MessageItemProps {
  message: Message;
  /** Groups: who wrote it (null for one's own and in individual chats). */
  sender: { name: string | null; number: string } | null;
  quoted: { found: Message; sender: string | null } | { missing: string } | null;
  reactions: ReactionCount[];
  pinned: boolean;
  mediaLink: string | null | undefined;
  /** The chat's phone (digits): the one that forwards. */
  phone: string;
  onReply: (m: Message) => void;
  onReact: (m: Message, emoji: string) => void;
  /** Open a ticket from this message (the side panel's form). */
  onTicket?: (m: Message) => void;
}

/**
 * One message of the conversation: in a group its sender's name and number; the quoted message;
 * the text (or "deleted"), its file; time, edited mark and, on one's own messages, the delivery mark;
 * the reactions under it; pinned; and the actions (reply, react, forward, open a ticket).
 */
export function MessageItem(props: MessageItemProps) {
  const { message: m, sender, quoted, reactions, pinned } = props;
  const mark = m.from_me ? ackMark(m.ack) : null;
  const react = (e: MouseEvent<HTMLButtonElement>, emoji: string) => {
    e.currentTarget.closest('details')?.removeAttribute('open');
    props.onReact(m, emoji);
  };
  return (
    <li
      className={`${m.from_me ? 'mine' : 'theirs'}${m.is_deleted ? ' deleted' : ''}${pinned ? ' pinned' : ''}`}
      data-message-id={m.message_id}
    >
      {sender && (
        <span className="sender" data-sender={sender.number}>
          {sender.name ?? `+${sender.number}`}
          {sender.name && <span className="muted"> +{sender.number}</span>}
        </span>
      )}
      {pinned && (
        <span className="mark pin" data-pinned="">
          pinned
        </span>
      )}
      {quoted && (
        <blockquote className="quote" data-quoted-id={'found' in quoted ? quoted.found.message_id : quoted.missing}>
          {'found' in quoted ? (
            <>
              <span className="quote-sender">{quoted.sender ?? 'You'}</span>
              <span className="quote-text">{excerpt(quoted.found)}</span>
            </>
          ) : (
            <span className="muted">Reply to an earlier message</span>
          )}
        </blockquote>
      )}
      {m.is_deleted ? (
        <span className="body muted" data-deleted="">
          This message was deleted
        </span>
      ) : (
        <>
          <MessageMedia message={m} link={props.mediaLink} />
          {(m.body || !m.media) && <span className="body">{m.body ?? '(no text)'}</span>}
        </>
      )}
      <span className="muted meta">
        {time(m.timestamp)}
        {isEdited(m) && (
          <span className="edited" data-edited="" title={`Before: ${m.prev_body}`}>
            {' '}
            · edited
          </span>
        )}
        {mark && (
          <span className={`ack ack-${mark.tone}`} data-ack={mark.tone} title={mark.label}>
            {' '}
            <span aria-hidden="true">{mark.glyph}</span>
            <span className="sr-only">{mark.label}</span>
          </span>
        )}
      </span>
      {reactions.length > 0 && (
        <ul className="reactions" aria-label="Reactions">
          {reactions.map((r) => (
            <li key={r.emoji} data-reaction={r.emoji} title={r.senders.map((s) => `+${s}`).join(', ')}>
              {r.emoji}
              {r.count > 1 && <span className="count"> {r.count}</span>}
            </li>
          ))}
        </ul>
      )}
      {!m.is_deleted && (
        <span className="message-actions">
          <button type="button" className="link-button" onClick={() => props.onReply(m)} aria-label={`Reply to: ${excerpt(m, 40)}`}>
            Reply
          </button>
          <details className="react">
            <summary>React</summary>
            <span className="react-choices">
              {REACTIONS.map((emoji) => (
                <button key={emoji} type="button" className="link-button" aria-label={`React ${emoji}`} onClick={(e) => react(e, emoji)}>
                  {emoji}
                </button>
              ))}
            </span>
          </details>
          <ForwardForm message={m} phone={props.phone} />
          {props.onTicket && (
            <button
              type="button"
              className="link-button"
              onClick={() => props.onTicket?.(m)}
              aria-label={`Open a ticket from: ${excerpt(m, 40)}`}
            >
              Ticket
            </button>
          )}
        </span>
      )}
    </li>
  );
}
