import type { OutgoingContent } from '@mapi/contracts';
import type { JobTraceCarrier } from '@mapi/platform';

/** One message to send: the data of a job in the phone's queue. Its job id is the queue_id. */
export interface SendJobData {
  org_id: string;
  phone_id: string;
  chat_id: string;
  content: OutgoingContent;
  /** The text (or caption), shown in job listings. */
  body: string | null;
  broadcast_id: string | null;
  /** The phone's job sequence number (a purge of everything fences every job up to its number). */
  seq: number;
  trace: JobTraceCarrier;
  /**
   * Who sent it (performedByOf the request: a console member's email, a token's id; null: a workflow). Stored as the
   * message's performed_by; absent in jobs recorded before it was kept (then not known).
   */
  performed_by?: string | null;
}

/** What a job returns once the network took the message. */
export interface SendJobResult {
  unique_id: string;
  message_id: string;
  timestamp: string;
  duplicate: boolean;
}

export interface NewSendJob {
  id: string;
  chat_id: string;
  content: OutgoingContent;
  /** Not before this (epoch ms); now when absent. */
  notBefore?: number;
  /** Who sends it (SendJobData.performed_by); absent: not known. */
  performed_by?: string | null;
}

export const messageIdOf = (chatId: string, uniqueId: string) => `true_${chatId}_${uniqueId}`;
