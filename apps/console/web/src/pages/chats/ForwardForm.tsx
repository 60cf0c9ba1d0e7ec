import { useId, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { Message } from '../../api/types';
import { forwardTargets } from './conversation-view';

/**
 * Forward a message to other chats (POST /v1/message/{message_id}/forward, by the chat's phone): a
 * box in a disclosure under the message. The API says which chat id it refuses.
 */
export function ForwardForm({ message, phone }: { message: Message; phone: string }) {
  const [note, setNote] = useState<string | null>(null);
  const id = useId();
  const forward = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const targets = forwardTargets(String(new FormData(form).get('to') ?? ''));
    if (!targets.length) return;
    setNote(null);
    try {
      await api('POST', `/message/${encodeURIComponent(message.message_id)}/forward`, { body: { forward_chat_ids: targets }, phone });
      setNote(`Forwarded to ${targets.length} chat${targets.length === 1 ? '' : 's'}.`);
      form.reset();
    } catch (err) {
      setNote(`Could not forward: ${errorText(err)}`);
    }
  };
  return (
    <details className="forward">
      <summary>Forward</summary>
      <form className="forward-form" onSubmit={(e) => void forward(e)}>
        <label htmlFor={id}>Forward to (numbers or chat ids, comma-separated)</label>
        <input id={id} name="to" required maxLength={2000} placeholder="447700900123, 1203…@g.us" />
        <button type="submit" className="secondary">
          Forward
        </button>
      </form>
      {note && (
        <span className="muted" role="status">
          {note}
        </span>
      )}
    </details>
  );
}
