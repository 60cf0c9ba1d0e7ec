import type { MessageKey, OutgoingContent } from '@mapi/contracts';

export type { MessageKey };

/**
 * What a connector does to a message already on the network. The network reports the outcome back
 * as the phone's own `messages.update` (edit, deletion, reaction) or `messages.upsert` (a forwarded
 * copy), so the change reaches the chats store by the ingestion path like any other.
 */
export interface MessageActionsPort {
  editMessage(key: MessageKey, body: string): Promise<void>;
  /** Deletes the phone's message for everyone. */
  deleteMessage(key: MessageKey): Promise<void>;
  /** The phone's reaction ('' takes it back). */
  reactToMessage(key: MessageKey, reaction: string): Promise<void>;
  pinMessage(key: MessageKey, pin: boolean): Promise<void>;
  /** Forwards the message to `chatId`; a repeat with the same `sentMessageId` returns the first copy (as sendMessage). */
  forwardMessage(
    key: MessageKey,
    chatId: string,
    content: OutgoingContent,
    sentMessageId: string,
  ): Promise<{ unique_id: string; timestamp: string; duplicate: boolean }>;
}
