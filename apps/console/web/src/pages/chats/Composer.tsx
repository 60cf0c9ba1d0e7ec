import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api, errorText } from '../../api/client';
import type { Message } from '../../api/types';
import { ErrorNote } from '../../components/ErrorNote';
import { MAX_ATTACHMENT_BYTES, excerpt, fileSize, sendMediaType } from './conversation-view';

/** A file as base64 (without the data: prefix). */
const base64Of = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new Error(`The file ${file.name} could not be read; choose it again`));
    reader.readAsDataURL(file);
  });

/**
 * The box to send a message (through the queue: POST /v1/message/send), as a reply when one is
 * chosen (`reply_to`: the quoted message's id; the network shows it quoted), with a file attached
 * when one is chosen (`media.filedata`, base64; the text is its caption).
 */
export function Composer(props: { chatId: string; phone: string; replyTo: Message | null; clearReply: () => void }) {
  const { chatId, phone, replyTo, clearReply } = props;
  const [sendError, setSendError] = useState<string | null>(null);
  const [queued, setQueued] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (replyTo) box.current?.focus();
  }, [replyTo]);
  const send = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const message = String(data.get('message') ?? '').trim();
    const file = data.get('file');
    const attached = file instanceof File && file.size > 0 ? file : null;
    if (!message && !attached) return setSendError('Write a message or attach a file.');
    if (attached && attached.size > MAX_ATTACHMENT_BYTES)
      return setSendError(`${attached.name} is ${fileSize(attached.size)}; files up to ${fileSize(MAX_ATTACHMENT_BYTES)} can be sent.`);
    setSendError(null);
    try {
      const mimetype = attached?.type || 'application/octet-stream';
      const media = attached && { type: sendMediaType(mimetype), filedata: await base64Of(attached), filename: attached.name, mimetype };
      const body = {
        chat_id: chatId,
        ...(message ? { message } : {}),
        ...(media ? { media } : {}),
        ...(replyTo ? { reply_to: replyTo.message_id } : {}),
      };
      const job = await api<{ queue_id: string }>('POST', '/message/send', { body, phone });
      setQueued(`Queued (${job.queue_id}); it shows here once the phone has sent it.`);
      form.reset();
      clearReply();
    } catch (err) {
      setSendError(errorText(err));
    }
  };
  return (
    <>
      {replyTo && (
        <div className="replying" data-reply-to={replyTo.message_id}>
          <span>
            Replying to <q>{excerpt(replyTo, 80)}</q>
          </span>
          <button type="button" className="secondary" onClick={clearReply}>
            Cancel reply
          </button>
        </div>
      )}
      <form className="row send" onSubmit={(e) => void send(e)}>
        <label className="grow">
          Message
          <textarea ref={box} id="composer-message" name="message" rows={2} maxLength={65536} aria-keyshortcuts="r" />
        </label>
        <label>
          Attach a file
          <input type="file" name="file" />
        </label>
        <button type="submit">Send</button>
      </form>
      {queued && (
        <p className="muted" role="status">
          {queued}
        </p>
      )}
      <ErrorNote error={sendError} />
    </>
  );
}
