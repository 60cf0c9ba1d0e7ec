import type { AuthenticationState, WAMessage } from 'baileys';
import type { Logger } from 'pino';
import type { OutgoingContent } from '../connector/phone-connector';
import type { HistoryAnchor, LidPair, SessionState, SocketFactory } from './baileys-types';
import type { MediaOutcome } from './received-media';
import type { SentMessageLog } from './sent-message-log';

export interface BaileysConnectorDeps {
  auth: {
    load(phoneId: string): Promise<{ state: AuthenticationState; saveCreds: () => Promise<void> }>;
    clear(phoneId: string): Promise<void>;
  };
  makeSocket: SocketFactory;
  sent: SentMessageLog;
  loadMedia: (m: NonNullable<OutgoingContent['media']>) => Promise<Buffer>;
  /** Stores a received message's media; answers its service link ('' when not stored) and why. */
  storeMedia?: (msg: WAMessage, chatId: string, reupload: (m: WAMessage) => Promise<WAMessage>) => Promise<MediaOutcome>;
  /** Downloads of received media at once (per event); default 4. */
  mediaConcurrency?: number;
  /** Whether media of history-synced messages is downloaded too (default true). */
  historyMedia?: boolean;
  /** This phone's LID map and history anchors in Postgres (bound to its organization and phone). */
  state?: {
    load(): Promise<SessionState>;
    saveLids(pairs: readonly LidPair[]): Promise<void>;
    saveAnchors(anchors: readonly HistoryAnchor[]): Promise<void>;
    clear(): Promise<void>;
  };
  logger: Logger;
  backoff?: { baseMs: number; maxMs: number };
  /** failed reconnects in a row after which the phone is reported UNREACHABLE rather than DISCONNECTED */
  unreachableAfter?: number;
  historyTimeoutMs?: number;
}
