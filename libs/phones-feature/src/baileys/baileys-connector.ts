import { WaState, sendUniqueId, type IngestMessage } from '@mapi/contracts';
import { ALL_WA_PATCH_NAMES, jidDecode, toNumber, type BaileysEventMap, type WAMessage } from 'baileys';
import type {
  ChatInfo,
  ConnectionUpdate,
  ConnectorEventName,
  ConnectorEvents,
  ConnectorHandler,
  GroupMetadata,
  GroupSettings,
  MessageChange,
  MessageKey,
  OutgoingContent,
  ParticipantAction,
  ParticipantResult,
  PhoneConnector,
} from '../connector/phone-connector';
import {
  hasMedia,
  historyReactions,
  toChatInfo,
  toDeletions,
  toGroupMetadata,
  toIngestMessage,
  toJid,
  toMessageUpdates,
  toParticipantResults,
  toReactionChanges,
  toReceipts,
  type MapContext,
} from './baileys-mapping';
import { toPinChanges } from './pin-changes';
import { mapBounded } from './bounded';
import { BaileysGroupActions } from './baileys-group-actions';
import { toGroupNotifications } from './baileys-group-notifications';
import { backoffMs, closeActionOf } from './close-reason';
import { HistoryFetcher, type Mapped } from './history-fetcher';
import { LidMap } from './lid-map';
import { BaileysMessageActions } from './message-actions';
import { quotedFor, toMessageContent } from './outgoing-content';
import { PollTally } from './poll-tally';
import type { BaileysConnectorDeps } from './baileys-connector-deps';
import type { BaileysSocket } from './baileys-types';
import type { MediaOutcome } from './received-media';

export type { BaileysConnectorDeps } from './baileys-connector-deps';
export type { BaileysSocket, SocketFactory } from './baileys-types';

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
  private readonly polls = new PollTally();
  private readonly chats = new Map<string, ChatInfo>();
  private readonly recent = new Map<string, WAMessage>();
  private readonly pendingSends = new Map<string, string>();
  private readonly history: HistoryFetcher;
  private readonly groups: BaileysGroupActions;
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
    this.history = new HistoryFetcher(() => this.sock, deps.historyTimeoutMs ?? 30_000);
    this.groups = new BaileysGroupActions(
      () => this.socket(),
      this.ctx,
      (id) => this.refreshGroup(id),
    );
    this.actions = new BaileysMessageActions(
      phoneId,
      deps,
      () => this.socket(),
      (id) => this.recent.get(id),
      this.pendingSends,
    );
  }
  private readonly actions: BaileysMessageActions;

  // Message actions (message-actions.ts): edit, delete for everyone, react, pin, forward.
  editMessage = (key: MessageKey, body: string) => this.actions.editMessage(key, body);
  deleteMessage = (key: MessageKey) => this.actions.deleteMessage(key);
  reactToMessage = (key: MessageKey, reaction: string) => this.actions.reactToMessage(key, reaction);
  pinMessage = (key: MessageKey, pin: boolean) => this.actions.pinMessage(key, pin);
  forwardMessage = (key: MessageKey, chatId: string, content: OutgoingContent, sentMessageId: string) =>
    this.actions.forwardMessage(key, chatId, content, sentMessageId);

  on<E extends ConnectorEventName>(event: E, handler: ConnectorHandler<E>): void {
    (this.handlers as Record<string, unknown>)[event] = handler;
  }

  /** Hands an event on after those before it (the handler resolves once it is durably stored). */
  private emit<E extends ConnectorEventName>(event: E, payload: ConnectorEvents[E]): Promise<void> {
    const handler = this.handlers[event] as ConnectorHandler<E> | undefined;
    this.queue = this.queue
      .then(() => handler?.(payload))
      .catch((err) => this.deps.logger.warn({ err, phone_id: this.phoneId, event }, 'connector event not handed on'));
    return this.queue;
  }

  private state(update: ConnectionUpdate): Promise<void> {
    return this.emit('connection.update', update);
  }

  async connect(): Promise<void> {
    this.stopped = false;
    // What an earlier session of this phone learned (maybe on another replica): LIDs and history anchors.
    const saved = await this.deps.state?.load();
    if (saved) {
      this.ctx.lids.restore(saved.lids);
      this.history.restore(saved.anchors);
    }
    await this.open();
  }

  /** Persists LIDs and anchors learned since the last call; what fails is kept for the next one. */
  private async saveState(): Promise<void> {
    const state = this.deps.state;
    if (!state) return;
    const lids = this.ctx.lids.takeUnsaved();
    const anchors = this.history.takeUnsaved();
    if (lids.length)
      await state
        .saveLids(lids)
        .catch((err) => (this.ctx.lids.putBack(lids), this.deps.logger.warn({ err, phone_id: this.phoneId }, 'LID map not saved')));
    if (anchors.length)
      await state
        .saveAnchors(anchors)
        .catch(
          (err) => (this.history.putBack(anchors), this.deps.logger.warn({ err, phone_id: this.phoneId }, 'history anchors not saved')),
        );
  }

  private async open(): Promise<void> {
    clearTimeout(this.timer);
    const { state, saveCreds } = await this.deps.auth.load(this.phoneId);
    this.registered = !!state.creds.registered;
    this.ctx.me = jidDecode(state.creds.me?.id)?.user ?? null;
    const sock = this.deps.makeSocket(state, (id) => this.recent.get(id) ?? this.polls.get(id));
    this.sock = sock;
    const live = () => this.sock === sock && !this.stopped;
    const on = <E extends keyof BaileysEventMap>(event: E, fn: (arg: BaileysEventMap[E]) => unknown) =>
      sock.ev.on(event, (arg) => {
        // One library event at a time, in the library's order (a media download must not let a
        // later receipt overtake its message).
        this.inbound = this.inbound
          .then(() => (live() ? fn(arg) : undefined))
          .catch((err) => this.deps.logger.warn({ err, phone_id: this.phoneId, event }, 'library event failed'))
          .then(() => this.saveState());
      });
    on('creds.update', () => saveCreds());
    on('connection.update', (u) => this.onConnection(sock, u));
    on('messages.upsert', (u) => this.onMessages(u.messages, u.type));
    on('messaging-history.set', (h) => this.onHistory(h));
    on('message-receipt.update', (r) => this.emit('message-receipt.update', toReceipts(r, this.ctx)));
    on('messages.update', async (u) => {
      const { receipts, changes } = toMessageUpdates(u, this.ctx);
      // Votes the library decrypted (it found the poll through getMessage): the poll's whole tally.
      for (const { key, update } of u) {
        const tally = update.pollUpdates?.length ? this.polls.vote(key, update.pollUpdates, this.ctx) : null;
        if (tally) changes.push(tally);
      }
      if (receipts.length) await this.emit('message-receipt.update', receipts);
      if (changes.length) await this.emit('messages.update', changes);
    });
    on('messages.reaction', (r) => {
      const changes = toReactionChanges(r, this.ctx);
      return changes.length ? this.emit('messages.update', changes) : undefined;
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
      await this.forget();
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

  private async forget(): Promise<void> {
    this.ctx.lids.clear();
    this.history.clear();
    await this.deps.auth.clear(this.phoneId);
    // The next pairing may be another account: its anchors and LIDs start afresh.
    await this.deps.state?.clear().catch((err) => this.deps.logger.warn({ err, phone_id: this.phoneId }, 'session state not cleared'));
  }

  private remember(msg: WAMessage): void {
    if (!msg.key.id) return;
    this.recent.set(msg.key.id, msg);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value as string);
    this.polls.remember(msg);
  }

  /**
   * Maps library messages, with their media stored first (at most `mediaConcurrency` downloads at
   * once, each within BAILEYS_MEDIA_MAX_BYTES). A download that fails or is too large leaves the
   * message with its media metadata and `path: ''` (logged, and counted in a summary).
   */
  private async mapWithMedia(
    messages: readonly WAMessage[],
    download: boolean,
    what: 'live' | 'history',
    sentIds?: Map<string, string>,
  ): Promise<Mapped[]> {
    const first = messages.map((raw) => ({ raw, m: toIngestMessage(raw, this.ctx) }));
    const { storeMedia } = this.deps;
    const sock = this.sock;
    const wanted = download && storeMedia && sock ? first.filter((x) => x.m && hasMedia(x.raw)) : [];
    const outcomes = await mapBounded(wanted, this.deps.mediaConcurrency ?? 4, (x) =>
      (storeMedia as NonNullable<typeof storeMedia>)(x.raw, x.m?.chat_id as string, (m) => (sock as BaileysSocket).updateMediaMessage(m)),
    );
    const paths = new Map(wanted.map((x, i) => [x.raw, outcomes[i].path]));
    if (outcomes.some((o) => o.outcome !== 'stored')) {
      const count = (k: MediaOutcome['outcome']) => outcomes.filter((o) => o.outcome === k).length;
      this.deps.logger.info(
        { phone_id: this.phoneId, what, stored: count('stored'), too_large: count('too-large'), failed: count('failed') },
        'received media: some files not stored',
      );
    }
    const out: Mapped[] = [];
    for (const { raw, m: plain } of first) {
      if (!plain) continue;
      const sentMessageId = raw.key.id ? sentIds?.get(raw.key.id) : undefined;
      const m =
        paths.has(raw) || sentMessageId
          ? (toIngestMessage(raw, this.ctx, { mediaPath: paths.get(raw), sentMessageId }) as IngestMessage)
          : plain;
      this.history.saw(raw, m.chat_id);
      out.push({ raw, m });
    }
    return out;
  }

  private async onMessages(messages: WAMessage[], type: 'notify' | 'append'): Promise<void> {
    messages.forEach((msg) => this.remember(msg));
    const mapped = await this.mapWithMedia(messages, type === 'notify', 'live', this.pendingSends);
    // A send through the API comes back as `append`: it is live (message.created), like the sandbox's.
    const live = mapped.filter((x) => type === 'notify' || x.m.sent_message_id).map((x) => x.m);
    const backfill = mapped.filter((x) => type !== 'notify' && !x.m.sent_message_id).map((x) => x.m);
    if (live.length) await this.emit('messages.upsert', { messages: live, type: 'notify' });
    if (backfill.length) await this.emit('messages.upsert', { messages: backfill, type: 'append' });
    const notifications = toGroupNotifications(messages, this.ctx);
    if (notifications.length) await this.emit('group-notifications.upsert', notifications);
    const pins = toPinChanges(messages, this.ctx);
    if (pins.length) await this.emit('messages.update', pins);
  }

  /**
   * History sync (initial bootstrap, recent, on demand): chats, then the messages as backfill with
   * their media stored (unless BAILEYS_HISTORY_MEDIA=false), then the reactions, poll tallies and
   * pins the synced messages carry. An ON_DEMAND answer also resolves the history fetch waiting for it.
   */
  private async onHistory(h: BaileysEventMap['messaging-history.set']): Promise<void> {
    const answer = this.history.arrived(h);
    let mapped: Mapped[] = [];
    try {
      this.ctx.lids.learnContacts(h.contacts);
      await this.onChats(h.chats.map((c) => toChatInfo(c, this.ctx)));
      h.messages.forEach((msg) => this.polls.remember(msg));
      mapped = await this.mapWithMedia(h.messages, this.deps.historyMedia ?? true, 'history');
      if (mapped.length) await this.emit('messages.upsert', { messages: mapped.map((x) => x.m), type: 'append' });
      const changes: MessageChange[] = [];
      for (const { raw } of mapped) {
        changes.push(...historyReactions(raw, this.ctx));
        const poll = raw.pollUpdates?.length && raw.key.id ? this.polls.get(raw.key.id) : undefined;
        if (poll) changes.push(this.polls.tally(poll, this.ctx));
      }
      changes.push(...toPinChanges(h.messages, this.ctx));
      if (changes.length) await this.emit('messages.update', changes);
    } finally {
      answer(mapped);
    }
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
    // Library events already under way finish (and what they taught is saved) before another replica takes over.
    await this.inbound;
    await this.queue;
  }

  async logout(): Promise<void> {
    this.stopped = true;
    await this.sock?.logout().catch((err) => this.deps.logger.warn({ err, phone_id: this.phoneId }, 'logout on the network failed'));
    await this.forget();
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

  groupCreate = (subject: string, participants: string[], settings?: GroupSettings) => this.groups.create(subject, participants, settings);
  groupInviteCode = (groupId: string) => this.groups.inviteCode(groupId);
  groupSettingsUpdate = (groupId: string, settings: GroupSettings) => this.groups.settings(groupId, settings);
  groupAcceptInvite = (code: string) => this.groups.acceptInvite(code);
  groupLeave = (groupId: string) => this.groups.leave(groupId);

  /** The network id of a send: derived from its id, so a retry after a crash re-sends the same message. */
  messageIdFor(sentMessageId: string): string {
    return sendUniqueId(this.phoneId, sentMessageId);
  }

  async sendMessage(
    chatId: string,
    content: OutgoingContent,
    sentMessageId: string,
  ): Promise<{ unique_id: string; timestamp: string; duplicate: boolean }> {
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

  async fetchMessageHistory(chatId: string, count: number): Promise<IngestMessage[]> {
    this.socket();
    try {
      return await this.history.fetch(chatId, count);
    } finally {
      await this.saveState();
    }
  }

  async resyncAppState(): Promise<{ chats: ChatInfo[]; groups: GroupMetadata[] }> {
    const sock = this.socket();
    await sock.resyncAppState(ALL_WA_PATCH_NAMES, false);
    const groups = Object.values(await sock.groupFetchAllParticipating()).map((g) => toGroupMetadata(g, this.ctx));
    for (const g of groups) this.chats.set(g.chat_id, { chat_id: g.chat_id, chat_name: g.subject, chat_type: 'group' });
    return { chats: [...this.chats.values()], groups };
  }
}
