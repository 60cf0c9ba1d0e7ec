import { randomBytes } from 'node:crypto';
import { sendUniqueId, type IngestMessage, type WaState } from '@mapi/contracts';
import type { NatsConnection, Subscription } from 'nats';
import type {
  ConnectorEventName,
  ConnectorEvents,
  ConnectorHandler,
  GroupMetadata,
  GroupSettings,
  OutgoingContent,
  ParticipantAction,
  ParticipantResult,
  MessageKey,
  PhoneConnector,
} from '../connector/phone-connector';
import { replyTarget } from '../cloud-api/outgoing';
import { contact, toIngestMessage, type SandboxNetwork } from './sandbox-network';
import { applyParticipantAction } from './participant-actions';
import { SandboxGroupActions } from './sandbox-group-actions';
import { SandboxChangeReporter } from './sandbox-change-reporter';
import { SandboxMessageActions } from './sandbox-message-actions';
import { storeSentMedia } from './sandbox-sent-media';
import type { MediaSettings } from '../cloud-api/received-media';

export const sandboxNotifySubject = (namespace: string, phoneId: string) => `${namespace}.sandbox.notify.${phoneId}`;

/**
 * What a sync reads: `full` the device's state too; `messages` pending messages and acks, then changes
 * (the state is re-read only while not known to be connected); `changes` only edits, deletions,
 * reactions and pins (a nudge after one of those: one read instead of two).
 */
export type SyncScope = 'full' | 'messages' | 'changes';
const SCOPE_RANK: Record<SyncScope, number> = { changes: 0, messages: 1, full: 2 };
/** After a change's publication failed, its rows are read again this much later (not in a tight loop while NATS is away). */
const RETRY_MS = 1_000;

/** Rows handed on per read of the pending ones. */
const PAGE = 500;

/**
 * A phone of the sandbox network. Its state lives in Postgres (SandboxNetwork); the control API
 * changes it and nudges the session over NATS, and a poll catches any nudge that was missed. While
 * the device is CONNECTED, pending messages and acks are handed on, then marked delivered.
 */
export class SandboxConnector implements PhoneConnector {
  private readonly handlers: { [E in ConnectorEventName]?: ConnectorHandler<E> } = {};
  private sub?: Subscription;
  private poll?: NodeJS.Timeout;
  private lastState?: WaState;
  private flushing: Promise<void> = Promise.resolve();
  private readonly groupActions: SandboxGroupActions;

  constructor(
    readonly phoneId: string,
    private readonly orgId: string,
    private readonly network: SandboxNetwork,
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly pollMs = 2_000,
    /** Where a file the phone sends is kept (storeSentMedia); null: sent files are stored without media. */
    private readonly media: MediaSettings | null = null,
  ) {
    this.groupActions = new SandboxGroupActions(network.groups, {
      me: () => this.me(),
      upsert: async (g) => {
        await this.emit('chats.upsert', [{ chat_id: g.chat_id, chat_name: g.subject, chat_type: 'group' }]);
        await this.emit('groups.upsert', [g]);
      },
      nudge: async (phoneIds) => {
        for (const id of phoneIds) this.nc.publish(sandboxNotifySubject(this.namespace, id), JSON.stringify({ kind: 'groups' }));
      },
    });
    this.actions = new SandboxMessageActions(
      phoneId,
      network,
      () => this.me(),
      () => void this.sync('messages'),
    );
    this.changes = new SandboxChangeReporter(
      network.changes,
      phoneId,
      (changes) => this.emit('messages.update', changes),
      () => {
        setTimeout(() => void (this.stopped || this.sync('changes')), RETRY_MS).unref();
      },
    );
  }

  private readonly changes: SandboxChangeReporter;
  private stopped = false;

  private readonly actions: SandboxMessageActions;

  on<E extends ConnectorEventName>(event: E, handler: ConnectorHandler<E>): void {
    (this.handlers as Record<string, unknown>)[event] = handler;
  }

  private emit<E extends ConnectorEventName>(event: E, payload: ConnectorEvents[E]): Promise<void> {
    const handler = this.handlers[event] as ConnectorHandler<E> | undefined;
    return handler ? handler(payload) : Promise.resolve();
  }

  async connect(): Promise<void> {
    this.stopped = false;
    const device = await this.network.ensureDevice(this.phoneId, this.orgId);
    if (device.state === 'UNPAIRED' || device.state === 'LOGGED_OUT' || (device.state === 'QR' && !device.qr)) {
      await this.network.setDevice(this.phoneId, {
        state: 'QR',
        qr: `sandbox-qr:${this.phoneId}:${randomBytes(12).toString('base64url')}`,
      });
    }
    this.sub = this.nc.subscribe(sandboxNotifySubject(this.namespace, this.phoneId), {
      callback: (_err, msg) => {
        const kind = (msg.json() as { kind?: string } | null)?.kind;
        void (kind === 'groups' ? this.syncGroups() : this.sync(kind === 'messages' || kind === 'changes' ? kind : 'full'));
      },
    });
    this.poll = setInterval(() => void this.sync(), this.pollMs);
    await this.sync();
  }

  /** Hands on the groups the phone is in (after the network changed one). */
  syncGroups(): Promise<void> {
    this.flushing = this.flushing
      .then(async () => {
        if (!(await this.isConnected())) return;
        const groups = await this.network.groupsOf(await this.me());
        await this.emit(
          'chats.upsert',
          groups.map((g) => ({ chat_id: g.chat_id, chat_name: g.subject, chat_type: 'group' as const })),
        );
        await this.emit('groups.upsert', groups);
        await this.deliverNotifications();
      })
      .catch(() => undefined);
    return this.flushing;
  }

  /** Hands on the group notifications the network holds for the phone (read on a groups nudge and on connecting). */
  private async deliverNotifications(): Promise<void> {
    for (let more = true; more;) {
      const rows = await this.network.groups.pending(this.phoneId, PAGE);
      more = rows.length === PAGE;
      if (!rows.length) return;
      await this.emit(
        'group-notifications.upsert',
        rows.map(({ row: _row, ...n }) => n),
      );
      await this.network.groups.markDelivered(rows.map((r) => r.row));
    }
  }

  /**
   * Reports a changed connection state, then hands on what is pending (serialized). The scope
   * (SyncScope) below `full`: the network said only that messages or changes did; a state change has
   * its own notification (handled in order before this one) and the poll re-reads the state, so a
   * phone known to be connected skips reading its device (one query less per message). Resolves once
   * what it read is handed on and acknowledged; the next sync does not wait for the acknowledgements
   * of changes (SandboxChangeReporter).
   */
  sync(scope: SyncScope = 'full'): Promise<void> {
    if (scope !== 'changes') this.messageNudges++;
    // A sync that is queued and not started yet reads everything pending when it starts, so a nudge
    // arriving meanwhile joins it (the wider scope of the two) instead of queueing one more: under a
    // steady stream of changes, one sync per nudge, each with its reads, would be a chain that never catches up.
    if (this.queued) {
      if (SCOPE_RANK[scope] > SCOPE_RANK[this.queued.scope]) this.queued.scope = scope;
      return this.queued.done.then(() => this.changes.settled());
    }
    const queued: { scope: SyncScope; done: Promise<void> } = { scope, done: Promise.resolve() };
    queued.done = this.flushing
      .then(() => {
        this.queued = undefined;
        return this.syncOnce(queued.scope);
      })
      .catch(() => undefined);
    this.queued = queued;
    this.flushing = queued.done;
    return queued.done.then(() => this.changes.settled());
  }

  /** The sync waiting for the running one to end (nudges join it). */
  private queued?: { scope: SyncScope; done: Promise<void> };
  /** Syncs asked for that read messages, and how many of them the last read of pending messages followed. */
  private messageNudges = 0;
  private messageNudgesRead = 0;

  private async syncOnce(scope: SyncScope): Promise<void> {
    const known = scope !== 'full' && this.lastState === 'CONNECTED';
    if (!known) {
      const device = await this.network.device(this.phoneId);
      if (!device) return;
      const state = device.state as WaState;
      if (state !== this.lastState) {
        await this.emit('connection.update', { state, qr: state === 'QR' ? device.qr : null, number: device.number || null });
        this.lastState = state;
        if (state === 'CONNECTED') await this.deliverNotifications(); // what came while it was away
      }
      if (state !== 'CONNECTED') return;
    }
    // Edits, deletions and reactions after the messages they change (a message and its edit made
    // together): a change's nudge comes after its message's, whose sync reads the message first. A
    // sync of changes alone reads the messages too when a message's nudge came since the last read of
    // them (that message may be committed, and its change with it, before the sync's read).
    if (!(known && scope === 'changes') || this.messageNudges !== this.messageNudgesRead) {
      this.messageNudgesRead = this.messageNudges;
      await this.deliverPending();
    }
    await this.changes.report();
  }

  private async deliverPending(): Promise<void> {
    for (let more = true; more;) {
      const rows = await this.network.pending(this.phoneId, PAGE);
      if (!rows.length) return;
      more = rows.length === PAGE; // a short page was all there was: no second read to learn that
      // A message not handed on yet travels with its ack; for the others only the ack is reported.
      const fresh = rows.filter((r) => r.new_message);
      if (fresh.length) await this.emit('messages.upsert', { messages: fresh.map(toIngestMessage), type: 'notify' });
      const acks = rows.filter((r) => !r.new_message);
      if (acks.length) {
        await this.emit(
          'message-receipt.update',
          acks.map((r) => ({ chat_id: r.chat_id, unique_id: r.unique_id, from_me: r.from_me, ack: r.pending_ack, at: Date.now() })),
        );
      }
      await this.network.markDelivered(rows);
    }
  }

  async disconnect(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    this.sub?.unsubscribe();
    await this.flushing;
    await this.changes.settled();
  }

  async logout(): Promise<void> {
    await this.network.setDevice(this.phoneId, { state: 'LOGGED_OUT', qr: null });
    await this.sync();
    await this.disconnect();
  }

  /** The sandbox answers an 8-character code; entering it is simulated by POST /v1/sandbox/phones/scan. */
  async requestPairingCode(_number: string): Promise<string> {
    const device = await this.network.device(this.phoneId);
    if (device?.state !== 'QR') throw new Error(`the phone is not waiting to be paired (state ${device?.state ?? 'unknown'})`);
    const code = randomBytes(4).toString('hex').toUpperCase();
    return `${code.slice(0, 4)}-${code.slice(4)}`;
  }

  async isConnected(): Promise<boolean> {
    return (await this.network.device(this.phoneId))?.state === 'CONNECTED';
  }

  private async me(): Promise<string> {
    const device = await this.network.device(this.phoneId);
    if (!device?.number) throw new Error('sandbox phone is not paired');
    return contact(device.number);
  }

  async groupParticipantsUpdate(groupId: string, participants: string[], action: ParticipantAction): Promise<ParticipantResult[]> {
    const group = await this.network.group(groupId);
    if (!group) return participants.map((id) => ({ id, status: '404' }));
    const me = await this.me();
    const { next, results } = applyParticipantAction(group.participants, me, participants, action);
    await this.network.saveGroup(groupId, group.subject, next);
    await this.emit('groups.upsert', [{ chat_id: groupId, subject: group.subject, participants: next }]);
    const changed = results.filter((r) => r.status === '200').map((r) => r.id);
    if (changed.length) {
      const members = [...new Set([...group.participants, ...next].map((p) => p.id))];
      const phones = await this.network.groups.record(groupId, members, [
        { chat_id: groupId, type: action, author: me, recipients: changed, body: null },
      ]);
      for (const id of phones) this.nc.publish(sandboxNotifySubject(this.namespace, id), JSON.stringify({ kind: 'groups' }));
    }
    return results;
  }

  groupCreate(subject: string, participants: string[], settings?: GroupSettings): Promise<GroupMetadata> {
    return this.groupActions.create(subject, participants, settings);
  }

  groupInviteCode(groupId: string): Promise<string> {
    return this.groupActions.inviteCode(groupId);
  }

  groupSettingsUpdate(groupId: string, settings: GroupSettings): Promise<void> {
    return this.groupActions.settings(groupId, settings);
  }

  groupAcceptInvite(code: string): Promise<string> {
    return this.groupActions.acceptInvite(code);
  }

  groupLeave(groupId: string): Promise<void> {
    return this.groupActions.leave(groupId);
  }

  async sendMessage(
    chatId: string,
    content: OutgoingContent,
    sentMessageId: string,
  ): Promise<{ unique_id: string; timestamp: string; duplicate: boolean }> {
    const earlier = await this.network.sentMessage(this.phoneId, sentMessageId);
    if (earlier) return { unique_id: earlier.unique_id, timestamp: earlier.timestamp.toISOString(), duplicate: true };
    const me = await this.me();
    const uniqueId = sendUniqueId(this.phoneId, sentMessageId);
    const file = content.media
      ? await storeSentMedia(this.media, { org_id: this.orgId, chat_id: chatId, unique_id: uniqueId }, content.media)
      : null;
    const m: IngestMessage = {
      chat_id: chatId,
      unique_id: uniqueId,
      from_me: true,
      sender_phone: me,
      body: content.text ?? null,
      message_type: content.media
        ? content.media.mimetype.startsWith('image/')
          ? 'image'
          : 'document'
        : content.poll
          ? 'poll_creation'
          : 'chat',
      timestamp: new Date().toISOString(),
      ack: 1,
      ...(file ? { media: file } : {}),
      sent_message_id: sentMessageId,
      // A reply is threaded to the message it quotes (as Baileys' `quoted`): the network keeps the
      // quote and hands it back with the sent message, whose stored copy then has quoted_message_id.
      ...(content.reply_to ? { quoted_message_id: replyTarget(content.reply_to).unique_id } : {}),
    };
    await this.network.addMessage(this.phoneId, m);
    void this.sync('messages');
    return { unique_id: m.unique_id, timestamp: m.timestamp, duplicate: false };
  }

  editMessage(key: MessageKey, body: string): Promise<void> {
    return this.actions.editMessage(key, body);
  }

  deleteMessage(key: MessageKey): Promise<void> {
    return this.actions.deleteMessage(key);
  }

  reactToMessage(key: MessageKey, reaction: string): Promise<void> {
    return this.actions.reactToMessage(key, reaction);
  }

  pinMessage(key: MessageKey, pin: boolean): Promise<void> {
    return this.actions.pinMessage(key, pin);
  }

  forwardMessage(
    key: MessageKey,
    chatId: string,
    content: OutgoingContent,
    sentMessageId: string,
  ): Promise<{ unique_id: string; timestamp: string; duplicate: boolean }> {
    return this.actions.forwardMessage(key, chatId, content, sentMessageId);
  }

  async fetchMessageHistory(chatId: string, count: number): Promise<IngestMessage[]> {
    return (await this.network.history(this.phoneId, chatId, count)).map(toIngestMessage);
  }

  async resyncAppState(): Promise<{
    chats: { chat_id: string; chat_name: string | null; chat_type: 'user' | 'group' }[];
    groups: GroupMetadata[];
  }> {
    const groups = await this.network.groupsOf(await this.me());
    const ids = new Set([...(await this.network.chatIds(this.phoneId)), ...groups.map((g) => g.chat_id)]);
    const chats = [...ids].map((chat_id) => {
      const group = groups.find((g) => g.chat_id === chat_id);
      return { chat_id, chat_name: group ? group.subject : null, chat_type: group ? ('group' as const) : ('user' as const) };
    });
    return { chats, groups };
  }
}
