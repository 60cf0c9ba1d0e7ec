import type { MessageActionsPort } from './message-actions';
import type {
  GroupNotification,
  GroupSettings,
  IngestMessage,
  OutgoingContent,
  ParticipantAction,
  ParticipantResult,
  WaState,
} from '@mapi/contracts';

export type { GroupNotification, GroupSettings, OutgoingContent, ParticipantAction, ParticipantResult };
export type { MessageActionsPort, MessageKey } from './message-actions';

/**
 * The port a messaging-network client implements (the sandbox network here; Baileys next). Shaped
 * after Baileys: `connection.update` (QR, open, close), `messages.upsert`, `message-receipt.update`,
 * `messages.update` (edits, deletions), `chats.upsert`, `groups.upsert`, and the actions
 * groupParticipantsUpdate, sendMessage, fetchMessageHistory and resyncAppState.
 * Event handlers are awaited: a connector hands an event on only once its handler resolved (the
 * session manager resolves after the event is durably in JetStream), so nothing is lost.
 */
export interface ConnectionUpdate {
  state: WaState;
  qr?: string | null;
  /** digits of the phone's number, once paired */
  number?: string | null;
}

export interface ReceiptUpdate {
  chat_id: string;
  unique_id: string;
  from_me: boolean;
  ack: number;
  participant?: string;
  at?: number;
}

export interface MessageChange {
  chat_id: string;
  unique_id: string;
  from_me: boolean;
  edit?: { body: string };
  deleted?: boolean;
  /** A reaction to the message by `sender_phone`; `reaction` is the emoji, '' when taken back. */
  reaction?: { reaction_id: string; sender_phone: string; reaction: string; timestamp: string };
  /** A poll's tally after a vote: every option with its voters (contact ids), in the poll's order. */
  poll_results?: { name: string; voters: string[] }[];
  /** The message pinned in its chat (until `expires_at`) or unpinned (`pinned: false`), made at `at` (ISO). */
  pin?: { pinned: boolean; at: string; expires_at: string | null };
}

export interface ChatInfo {
  chat_id: string;
  chat_name: string | null;
  chat_type: 'user' | 'group' | 'business';
}

export interface GroupMetadata {
  chat_id: string;
  subject: string;
  participants: { id: string; admin: boolean; super_admin?: boolean }[];
  /** The group's settings, when known (absent: unchanged). */
  description?: string | null;
  announce?: boolean;
  restrict?: boolean;
  member_add_admins_only?: boolean;
}

export interface ConnectorEvents {
  'connection.update': ConnectionUpdate;
  'messages.upsert': { messages: IngestMessage[]; type: 'notify' | 'append' };
  'message-receipt.update': ReceiptUpdate[];
  'messages.update': MessageChange[];
  'chats.upsert': ChatInfo[];
  'groups.upsert': GroupMetadata[];
  /** Joins, leaves, admin and subject/settings changes of groups, each with the network's id. */
  'group-notifications.upsert': GroupNotification[];
}
export type ConnectorEventName = keyof ConnectorEvents;
export type ConnectorHandler<E extends ConnectorEventName> = (payload: ConnectorEvents[E]) => Promise<void>;

export interface PhoneConnector extends MessageActionsPort {
  readonly phoneId: string;
  on<E extends ConnectorEventName>(event: E, handler: ConnectorHandler<E>): void;
  /** Starts the session: emits connection.update (a QR to scan, or the connection's state). */
  connect(): Promise<void>;
  /** Ends the session, keeping its credentials (a restart or another replica takes over). */
  disconnect(): Promise<void>;
  /** Ends the session and forgets the pairing: the phone goes back to QR. */
  logout(): Promise<void>;
  /** Whether the network can be reached through this session right now. */
  isConnected(): Promise<boolean>;
  groupParticipantsUpdate(groupId: string, participants: string[], action: ParticipantAction): Promise<ParticipantResult[]>;
  /**
   * Sends a message. `sentMessageId` identifies the send: a repeat with the same id (a retried job
   * whose first attempt did reach the network) returns the first message instead of sending again.
   */
  sendMessage(
    chatId: string,
    content: OutgoingContent,
    sentMessageId: string,
  ): Promise<{ unique_id: string; timestamp: string; duplicate: boolean }>;
  fetchMessageHistory(chatId: string, count: number): Promise<IngestMessage[]>;
  /** Pairing by code (an alternative to the QR): the code to type on the phone for `number`. */
  requestPairingCode(number: string): Promise<string>;
  /** Group lifecycle (groups-connector actions): each throws with the network's reason when refused. */
  groupCreate(subject: string, participants: string[], settings?: GroupSettings): Promise<GroupMetadata>;
  /** A new invite code for the group (the earlier one stops working). */
  groupInviteCode(groupId: string): Promise<string>;
  groupSettingsUpdate(groupId: string, settings: GroupSettings): Promise<void>;
  /** Joins the group of an invite code: its id. */
  groupAcceptInvite(code: string): Promise<string>;
  groupLeave(groupId: string): Promise<void>;
  /** Re-reads chats and groups from the network. */
  resyncAppState(): Promise<{ chats: ChatInfo[]; groups: GroupMetadata[] }>;
  /** Why a free-form message to the chat would be refused now (the Cloud API's 24-hour window), or null; absent: never known ahead. */
  freeFormRefusal?(chatId: string): Promise<string | null>;
  /** The network's read mark for a chat read here (the Cloud API's mark-as-read); absent: nothing is sent. */
  markChatRead?(chatId: string): Promise<void>;
}
