import { WaState, sendUniqueId, type IngestMessage } from '@mapi/contracts';
import { ALL_WA_PATCH_NAMES, jidDecode, toNumber, type AuthenticationState, type BaileysEventMap, type WAMessage, type WASocket } from 'baileys';
import type { Logger } from 'pino';
import type {
  ChatInfo,
  ConnectionUpdate,
  ConnectorEventName,
  ConnectorEvents,
  ConnectorHandler,
  GroupMetadata,
  OutgoingContent,
  ParticipantAction,
  ParticipantResult,
  PhoneConnector,
} from '../connector/phone-connector';
import { hasMedia, toChatInfo, toDeletions, toGroupMetadata, toIngestMessage, toJid, toMessageUpdates, toParticipantResults, toReceipts, type MapContext } from './baileys-mapping';
import { backoffMs, closeActionOf } from './close-reason';
import { HistoryFetcher } from './history-fetcher';
import { LidMap } from './lid-map';
import { quotedFor, toMessageContent } from './outgoing-content';
import type { SentMessageLog } from './sent-message-log';

/** The socket surface this connector uses: the library's socket, or a fake one in tests. */
export type BaileysSocket = Pick<
  WASocket,
  'ev' | 'user' | 'sendMessage' | 'groupParticipantsUpdate' | 'groupMetadata' | 'groupFetchAllParticipating' | 'fetchMessageHistory' | 'resyncAppState' | 'logout' | 'end' | 'requestPairingCode' | 'updateMediaMessage'
>;
export type SocketFactory = (auth: AuthenticationState, getMessage: (id: string) => WAMessage | undefined) => BaileysSocket;

export interface BaileysConnectorDeps {
  auth: { load(phoneId: string): Promise<{ state: AuthenticationState; saveCreds: () => Promise<void> }>; clear(phoneId: string): Promise<void> };
  makeSocket: SocketFactory;
  sent: SentMessageLog;
  loadMedia: (m: NonNullable<OutgoingContent['media']>) => Promise<Buffer>;
  /** Stores a received message's media; answers its service link ('' when not stored). */
  storeMedia?: (msg: WAMessage, chatId: string, reupload: (m: WAMessage) => Promise<WAMessage>) => Promise<string>;
  logger: Logger;
  backoff?: { baseMs: number; maxMs: number };
  /** failed reconnects in a row after which the phone is reported UNREACHABLE rather than DISCONNECTED */
  unreachableAfter?: number;
  historyTimeoutMs?: number;
}

/** `banned` is not one of the port's states yet: written to the phone as it is (see docs/services/baileys.md). */
const BANNED = WaState.BANNED;
const RECENT = 500;

/**
 * A phone on the real network through Baileys. Library events are mapped (baileys-mapping.ts) and
 * handed on one at a time, in order. Closes are classified (close-reason.ts): reconnect with backoff,
 * restart, or stop as logged out / banned / replaced.
 */
export class BaileysConnector implements PhoneConnector {
  private readonly handlers: { [E in ConnectorEventName]?: ConnectorHandler<E> } = {};
  private readonly ctx: MapContext = { me: null, lids: new LidMap() };
  private readonly chats = new Map<string, ChatInfo>();
  private readonly recent = new Map<string, WAMessage>();
  private readonly pendingSends = new Map<string, string>();
  private readonly history: HistoryFetcher;
  private sock?: BaileysSocket;
  private queue: Promise<void> = Promise.resolve();
  private inbound: Promise<unknown> = Promise.resolve();
  private connected = false;
  private stopped = true;
  private attempts = 0;
  private timer?: NodeJS.Timeout;
  private registered = false;

  constructor(
    readonly phoneId: string,
    private readonly deps: BaileysConnectorDeps,
  ) {
    this.history = new HistoryFetcher(() => this.sock, this.ctx, deps.historyTimeoutMs ?? 30_000);
  }

  on<E extends ConnectorEventName>(event: E, handler: ConnectorHandler<E>): void {
    (this.handlers as Record<string, unknown>)[event] = handler;
  }

  /** Hands an event on after those before it (the handler resolves once it is durably stored). */
  private emit<E extends ConnectorEventName>(event: E, payload: ConnectorEvents[E]): Promise<void> {
    const handler = this.handlers[event] as ConnectorHandler<E> | undefined;
    this.queue = this.queue.then(() => handler?.(payload)).catch((err) => this.deps.logger.warn({ err, phone_id: this.phoneId, event }, 'connector event not handed on'));
    return this.queue;
  }

  private state(update: ConnectionUpdate): Promise<void> {
    return this.emit('connection.update', update);
  }

  async connect(): Promise<void> {
    this.stopped = false;
    await this.open();
  }

  private async open(): Promise<void> {
    clearTimeout(this.timer);
    const { state, saveCreds } = await this.deps.auth.load(this.phoneId);
    this.registered = !!state.creds.registered;
    this.ctx.me = jidDecode(state.creds.me?.id)?.user ?? null;
    const sock = this.deps.makeSocket(state, (id) => this.recent.get(id));
    this.sock = sock;
    const live = () => this.sock === sock && !this.stopped;
    const on = <E extends keyof BaileysEventMap>(event: E, fn: (arg: BaileysEventMap[E]) => unknown) =>
      sock.ev.on(event, (arg) => {
        // One library event at a time, in the library's order (a media download must not let a
        // later receipt overtake its message).
        this.inbound = this.inbound
          .then(() => (live() ? fn(arg) : undefined))
          .catch((err) => this.deps.logger.warn({ err, phone_id: this.phoneId, event }, 'library event failed'));
      });
    on('creds.update', () => saveCreds());
    on('connection.update', (u) => this.onConnection(sock, u));
    on('messages.upsert', (u) => this.onMessages(u.messages, u.type));
    on('messaging-history.set', (h) => this.onHistory(h));
    on('message-receipt.update', (r) => this.emit('message-receipt.update', toReceipts(r, this.ctx)));
    on('messages.update', async (u) => {
      const { receipts, changes } = toMessageUpdates(u, this.ctx);
      if (receipts.length) await this.emit('message-receipt.update', receipts);
      if (changes.length) await this.emit('messages.update', changes);
    });
    on('messages.delete', (d) => ('keys' in d ? this.emit('messages.update', toDeletions(d.keys, this.ctx)) : undefined));
    on('chats.upsert', (c) => this.onChats(c.map((x) => toChatInfo(x, this.ctx))));
    on('groups.upsert', (g) => this.onGroups(g.map((x) => toGroupMetadata(x, this.ctx))));
    on('groups.update', (g) => Promise.all(g.map((x) => x.id && this.refreshGroup(x.id))));
    on('group-participants.update', (u) => this.refreshGroup(u.id));
    on('contacts.upsert', (c) => this.ctx.lids.learnContacts(c));
    on('contacts.update', (c) => this.ctx.lids.learnContacts(c));
    on('chats.phoneNumberShare', ({ lid, jid }) => this.ctx.lids.learn(lid, jid));
  }

  private async onConnection(sock: BaileysSocket, u: Partial<BaileysEventMap['connection.update']>): Promise<void> {
    if (u.qr) await this.state({ state: 'QR', qr: u.qr });
    if (u.connection === 'open') {
      this.connected = true;
      this.attempts = 0;
      this.registered = true;
      this.ctx.me = jidDecode(sock.user?.id)?.user ?? this.ctx.me;
      await this.state({ state: 'CONNECTED', number: this.ctx.me });
    }
    if (u.connection !== 'close') return;
    this.connected = false;
    const action = closeActionOf(u.lastDisconnect?.error);
    this.deps.logger.info({ phone_id: this.phoneId, action, attempts: this.attempts }, 'connection closed');
    if (action === 'logged-out') {
      this.stopped = true;
      await this.deps.auth.clear(this.phoneId);
      await this.state({ state: 'LOGGED_OUT', qr: null });
    } else if (action === 'banned') {
      this.stopped = true;
      await this.state({ state: BANNED, qr: null });
    } else if (action === 'replaced') {
      this.stopped = true;
      await this.state({ state: 'DISCONNECTED' });
    } else if (action === 'restart') {
      await this.open();
    } else {
      // Unpaired: the QR expired; open again for fresh QRs without reporting a disconnection.
      if (this.registered) await this.state({ state: this.attempts >= (this.deps.unreachableAfter ?? 5) ? 'UNREACHABLE' : 'DISCONNECTED' });
      const { baseMs, maxMs } = this.deps.backoff ?? { baseMs: 1_000, maxMs: 60_000 };
      const delay = backoffMs(this.attempts++, baseMs, maxMs);
      this.timer = setTimeout(() => {
        if (!this.stopped) void this.open().catch((err) => this.deps.logger.warn({ err, phone_id: this.phoneId }, 'reconnect failed'));
      }, delay);
    }
  }

  private remember(msg: WAMessage): void {
    if (!msg.key.id) return;
    this.recent.set(msg.key.id, msg);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value as string);
  }

  private async onMessages(messages: WAMessage[], type: 'notify' | 'append'): Promise<void> {
    const live: IngestMessage[] = [];
    const backfill: IngestMessage[] = [];
    for (const msg of messages) {
      this.remember(msg);
      const sentMessageId = msg.key.id ? this.pendingSends.get(msg.key.id) : undefined;
      const chatId = toIngestMessage(msg, this.ctx)?.chat_id;
      const mediaPath = chatId && type === 'notify' && hasMedia(msg) && this.deps.storeMedia && this.sock ? await this.deps.storeMedia(msg, chatId, this.sock.updateMediaMessage) : '';
      const m = toIngestMessage(msg, this.ctx, { mediaPath, sentMessageId });
      if (!m) continue;
      this.history.saw(msg, m.chat_id);
      // A send through the API comes back as `append`: it is live (message.created), like the sandbox's.
      (type === 'notify' || sentMessageId ? live : backfill).push(m);
    }
    if (live.length) await this.emit('messages.upsert', { messages: live, type: 'notify' });
    if (backfill.length) await this.emit('messages.upsert', { messages: backfill, type: 'append' });
  }

  private async onHistory(h: BaileysEventMap['messaging-history.set']): Promise<void> {
    this.ctx.lids.learnContacts(h.contacts);
    await this.onChats(h.chats.map((c) => toChatInfo(c, this.ctx)));
    const messages = h.messages.map((msg) => toIngestMessage(msg, this.ctx)).filter((m): m is IngestMessage => !!m);
    h.messages.forEach((msg, i) => messages[i] && this.history.saw(msg, messages[i].chat_id));
    this.history.received(h);
    if (messages.length) await this.emit('messages.upsert', { messages, type: 'append' });
  }

  private async onChats(chats: (ChatInfo | null)[]): Promise<void> {
    const known = chats.filter((c): c is ChatInfo => !!c);
    known.forEach((c) => this.chats.set(c.chat_id, c));
    if (known.length) await this.emit('chats.upsert', known);
  }

  private async onGroups(groups: GroupMetadata[]): Promise<void> {
    await this.onChats(groups.map((g) => ({ chat_id: g.chat_id, chat_name: g.subject, chat_type: 'group' as const })));
    if (groups.length) await this.emit('groups.upsert', groups);
  }

  private async refreshGroup(groupId: string): Promise<void> {
    if (this.sock) await this.onGroups([toGroupMetadata(await this.sock.groupMetadata(groupId), this.ctx)]);
  }

  async disconnect(): Promise<void> {
    this.stopped = true;
    this.connected = false;
    clearTimeout(this.timer);
    const sock = this.sock;
    this.sock = undefined;
    sock?.end(undefined);
    await this.queue;
  }

  async logout(): Promise<void> {
    this.stopped = true;
    await this.sock?.logout().catch((err) => this.deps.logger.warn({ err, phone_id: this.phoneId }, 'logout on the network failed'));
    await this.deps.auth.clear(this.phoneId);
    await this.state({ state: 'LOGGED_OUT', qr: null });
    await this.disconnect();
  }

  async isConnected(): Promise<boolean> {
    return this.connected && !!this.sock;
  }

  private socket(): BaileysSocket {
    if (!this.sock || !this.connected) throw new Error('The phone is not connected');
    return this.sock;
  }

  /** Pairing by code instead of a QR: the code the user types on the phone (digits of its number). */
  async requestPairingCode(phoneNumber: string): Promise<string> {
    if (!this.sock) throw new Error('The session is not running');
    if (this.registered) throw new Error('The phone is already paired');
    return this.sock.requestPairingCode(phoneNumber.replace(/\D/g, ''));
  }

  async groupParticipantsUpdate(groupId: string, participants: string[], action: ParticipantAction): Promise<ParticipantResult[]> {
    const sock = this.socket();
    const answer = await sock.groupParticipantsUpdate(groupId, participants.map(toJid), action);
    await this.refreshGroup(groupId).catch((err) => this.deps.logger.warn({ err, phone_id: this.phoneId }, 'group refresh failed'));
    return toParticipantResults(participants, answer, this.ctx);
  }

  /** The network id of a send: derived from its id, so a retry after a crash re-sends the same message. */
  messageIdFor(sentMessageId: string): string {
    return sendUniqueId(this.phoneId, sentMessageId);
  }

  async sendMessage(chatId: string, content: OutgoingContent, sentMessageId: string): Promise<{ unique_id: string; timestamp: string; duplicate: boolean }> {
    const earlier = await this.deps.sent.find(this.phoneId, sentMessageId);
    if (earlier) return { unique_id: earlier.unique_id, timestamp: earlier.sent_at.toISOString(), duplicate: true };
    const sock = this.socket();
    const messageId = this.messageIdFor(sentMessageId);
    const built = await toMessageContent(content, this.deps.loadMedia);
    const quoted = content.reply_to ? quotedFor(chatId, content.reply_to, (id) => this.recent.get(id)) : undefined;
    this.pendingSends.set(messageId, sentMessageId);
    try {
      const sent = await sock.sendMessage(toJid(chatId), built, { messageId, quoted });
      const seconds = toNumber((sent?.messageTimestamp ?? 0) as number);
      const sentAt = seconds ? new Date(seconds * 1000) : new Date();
      await this.deps.sent.record(this.phoneId, sentMessageId, chatId, { unique_id: messageId, sent_at: sentAt });
      return { unique_id: messageId, timestamp: sentAt.toISOString(), duplicate: false };
    } finally {
      // The library echoes the send on the next tick; keep the link until then.
      setTimeout(() => this.pendingSends.delete(messageId), 60_000).unref();
    }
  }

  fetchMessageHistory(chatId: string, count: number): Promise<IngestMessage[]> {
    this.socket();
    return this.history.fetch(chatId, count);
  }

  async resyncAppState(): Promise<{ chats: ChatInfo[]; groups: GroupMetadata[] }> {
    const sock = this.socket();
    await sock.resyncAppState(ALL_WA_PATCH_NAMES, false);
    const groups = Object.values(await sock.groupFetchAllParticipating()).map((g) => toGroupMetadata(g, this.ctx));
    for (const g of groups) this.chats.set(g.chat_id, { chat_id: g.chat_id, chat_name: g.subject, chat_type: 'group' });
    return { chats: [...this.chats.values()], groups };
  }
}
