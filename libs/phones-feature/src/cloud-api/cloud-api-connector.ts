import { sendUniqueId, type IngestMessage, type MessageKey, type OutgoingContent, type WaState } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import type {
  ChatInfo,
  ConnectorEventName,
  ConnectorEvents,
  ConnectorHandler,
  GroupMetadata,
  ParticipantResult,
  PhoneConnector,
} from '../connector/phone-connector';
import type { CloudApiSecrets, CloudApiStore } from './cloud-api-store';
import { closedWindowReason, type CustomerWindows } from './customer-windows';
import type { GraphClient } from './graph-client';
import { CloudApiUnsupported, GraphError, SendRefused, SendThrottled, classifyGraphError, refusalReason } from './graph-errors';
import { graphMessageOf, recipientOf, replyTarget, storedTypeOf } from './outgoing';
import type { ReceivedMediaQueue } from './received-media';
import type { SentMessages } from './sent-messages';

type Handlers = { [E in ConnectorEventName]?: ConnectorHandler<E> };
const digits = (s: string | undefined) => (s ?? '').replace(/\D/g, '');

/**
 * The `cloud_api` connector: a phone on Meta's WhatsApp Business Cloud API. There is no socket: it is
 * connected while the Graph API accepts the token (GET /{phone_number_id}); sends are Graph API
 * requests; what arrives comes through the webhook (CloudApiWebhook), served by any replica.
 */
export class CloudApiConnector implements PhoneConnector {
  private readonly handlers: Handlers = {};
  private state: WaState | 'starting' = 'starting';
  private secrets: CloudApiSecrets | null = null;
  private number: string | null = null;
  private retry?: NodeJS.Timeout;
  private mediaTimer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    readonly phoneId: string,
    private readonly deps: {
      store: CloudApiStore;
      sent: SentMessages;
      graph: GraphClient;
      media: ReceivedMediaQueue;
      windows: CustomerWindows;
      logger: Logger;
      retryMs: number;
      /** How often received messages waiting for their files are looked at while connected. */
      mediaPollMs: number;
    },
  ) {}

  on<E extends ConnectorEventName>(event: E, handler: ConnectorHandler<E>): void {
    (this.handlers as Record<string, unknown>)[event] = handler;
  }

  private async emit<E extends ConnectorEventName>(event: E, payload: ConnectorEvents[E]): Promise<void> {
    await (this.handlers[event] as ConnectorHandler<E> | undefined)?.(payload);
  }

  private async setState(state: WaState): Promise<void> {
    if (state === this.state) return;
    this.state = state;
    await this.emit('connection.update', { state, qr: null, ...(this.number ? { number: this.number } : {}) });
  }

  async connect(): Promise<void> {
    this.stopped = false;
    clearTimeout(this.retry);
    this.secrets = await this.deps.store.load(this.phoneId);
    if (!this.secrets) return this.setState('LOGGED_OUT');
    try {
      const info = await this.deps.graph.phoneNumber(this.secrets.phone_number_id, this.secrets.access_token);
      this.number = digits(info.display_phone_number) || this.number;
      await this.setState('CONNECTED');
      this.pollMedia();
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      const refused = classifyGraphError(err) === 'auth';
      this.deps.logger.warn(
        { phone_id: this.phoneId, code: err.code, status: err.httpStatus, reason: err.message },
        'cloud api: not connected',
      );
      await this.setState(refused ? 'LOGGED_OUT' : 'UNREACHABLE');
      // a refused token stays refused (a new phone is created with the new one); an outage is tried again
      if (!refused && !this.stopped) this.retry = setTimeout(() => void this.connect().catch(() => undefined), this.deps.retryMs).unref();
    }
  }

  async disconnect(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearTimeout(this.mediaTimer);
  }

  /** Received files fetched and their messages handed on, a batch at a time, while the session runs. */
  private pollMedia(): void {
    clearTimeout(this.mediaTimer);
    const tick = async () => {
      const secrets = this.secrets;
      if (this.stopped || !secrets || this.state !== 'CONNECTED') return;
      let handed = 0;
      try {
        handed = await this.deps.media.drain(secrets, (m) => this.emit('messages.upsert', { messages: [m], type: 'notify' }));
      } catch (err) {
        this.deps.logger.warn({ phone_id: this.phoneId, reason: (err as Error).message }, 'cloud api: received media not handed on yet');
      }
      if (!this.stopped) this.mediaTimer = setTimeout(() => void tick(), handed > 0 ? 0 : this.deps.mediaPollMs).unref();
    };
    void tick();
  }

  /** Forgets the secrets: the phone cannot send or take callbacks any more (reset, delete). */
  async logout(): Promise<void> {
    await this.disconnect();
    await this.deps.store.forget(this.phoneId);
    this.secrets = null;
  }

  async isConnected(): Promise<boolean> {
    return this.state === 'CONNECTED' && this.secrets !== null;
  }

  async sendMessage(chatId: string, content: OutgoingContent, sentMessageId: string) {
    const earlier = await this.deps.sent.find(this.phoneId, sentMessageId);
    if (earlier) return { unique_id: earlier.unique_id, timestamp: earlier.sent_at.toISOString(), duplicate: true };
    const to = recipientOf(chatId);
    // outside the 24-hour window only templates go: refused here, before Meta (which would answer 131047)
    const refusal = content.template ? null : await this.freeFormRefusal(to);
    if (refusal) throw new SendRefused(refusal);
    const quoted = content.reply_to ? await this.wamidOf(replyTarget(content.reply_to)) : null;
    const uploaded = content.media?.filedata && !content.media.url ? await this.upload(content.media) : null;
    const wamid = await this.post(graphMessageOf(to, content, quoted, uploaded));
    const m: IngestMessage = {
      chat_id: `${to}@c.us`,
      unique_id: sendUniqueId(this.phoneId, sentMessageId),
      from_me: true,
      sender_phone: this.me(),
      body: content.template ? `template ${content.template.name} (${content.template.language})` : (content.text ?? null),
      message_type: storedTypeOf(content),
      timestamp: new Date().toISOString(),
      // accepted by Meta, not yet on WhatsApp's servers: the `sent` status raises it to 1
      ack: 0,
      quoted_message_id: content.reply_to ? replyTarget(content.reply_to).unique_id : null,
      sent_message_id: sentMessageId,
    };
    // the message first, then its wamid: a status callback finds its message in the store
    await this.emit('messages.upsert', { messages: [m], type: 'notify' });
    await this.deps.sent.record(this.phoneId, {
      sent_message_id: sentMessageId,
      chat_id: m.chat_id,
      unique_id: m.unique_id,
      wamid,
      sent_at: new Date(m.timestamp),
    });
    return { unique_id: m.unique_id, timestamp: m.timestamp, duplicate: false };
  }

  /** Why a free-form message to the chat would be refused now (its 24-hour window known closed), or null. */
  async freeFormRefusal(chatId: string): Promise<string | null> {
    const window = await this.deps.windows.of(this.phoneId, recipientOf(chatId));
    return window.state === 'closed' ? closedWindowReason(window) : null;
  }

  /** The chat read here: Meta's mark-as-read (blue ticks) of the customer's latest message, if one came through the webhook. */
  async markChatRead(chatId: string): Promise<void> {
    const secrets = this.secrets;
    if (!secrets) throw new Error('the phone has no Cloud API credentials');
    const { last_wamid: wamid } = await this.deps.windows.of(this.phoneId, recipientOf(chatId));
    if (!wamid) return;
    try {
      await this.deps.graph.markRead(secrets.phone_number_id, secrets.access_token, wamid);
    } catch (err) {
      throw await this.classified(err);
    }
  }

  async reactToMessage(key: MessageKey, reaction: string): Promise<void> {
    const to = recipientOf(key.chat_id);
    // a reaction (or taking one back) is a free-form message: outside the 24-hour window Meta refuses it (131047)
    const refusal = await this.freeFormRefusal(to);
    if (refusal) throw new SendRefused(refusal);
    const target = await this.wamidOf(key);
    const wamid = await this.post({
      recipient_type: 'individual',
      to,
      type: 'reaction',
      reaction: { message_id: target, emoji: reaction },
    });
    // the Cloud API does not echo the phone's own reaction: reported here, as the other networks do
    await this.emit('messages.update', [
      {
        chat_id: `${to}@c.us`,
        unique_id: key.unique_id,
        from_me: key.from_me,
        reaction: { reaction_id: wamid, sender_phone: this.me(), reaction, timestamp: new Date().toISOString() },
      },
    ]);
  }

  async forwardMessage(_key: MessageKey, chatId: string, content: OutgoingContent, sentMessageId: string) {
    // the Cloud API has no forward: the content is sent again
    return this.sendMessage(chatId, content, sentMessageId);
  }

  /** A file given inline (base64) uploaded to the Graph API first: its media id. */
  private async upload(media: { filedata?: string; mimetype: string; filename: string }): Promise<string> {
    const secrets = this.secrets;
    if (!secrets) throw new Error('the phone has no Cloud API credentials');
    const data = Buffer.from(media.filedata ?? '', 'base64');
    if (data.length === 0) throw new SendRefused('The media file is empty or not base64');
    try {
      return await this.deps.graph.uploadMedia(secrets.phone_number_id, secrets.access_token, {
        data,
        mimetype: media.mimetype,
        filename: media.filename,
      });
    } catch (err) {
      throw await this.classified(err);
    }
  }

  /** Meta's id of a message: the phone's own were sent under our unique_id, the others' ids are Meta's already. */
  private async wamidOf(key: { unique_id: string; from_me: boolean }): Promise<string> {
    if (!key.from_me) return key.unique_id;
    const wamid = await this.deps.sent.wamidOf(this.phoneId, key.unique_id);
    if (!wamid) throw new SendRefused('The message was not sent through the Cloud API: it has no Meta id to refer to');
    return wamid;
  }

  private me(): string {
    return this.number ? `${this.number}@c.us` : (this.secrets?.org_phone ?? '');
  }

  /** POST /messages with Meta's errors classified: retried (thrown as is), refused for good, or the token refused. */
  private async post(body: Record<string, unknown>): Promise<string> {
    const secrets = this.secrets;
    if (!secrets) throw new Error('the phone has no Cloud API credentials');
    try {
      return await this.deps.graph.sendMessage(secrets.phone_number_id, secrets.access_token, body);
    } catch (err) {
      throw await this.classified(err);
    }
  }

  /** Meta's refusal for good (SendRefused), its rate limits (SendThrottled), or an error to retry (the token refused also disconnects the phone). */
  private async classified(err: unknown): Promise<Error> {
    if (!(err instanceof GraphError)) return err as Error;
    const kind = classifyGraphError(err);
    this.deps.logger.warn({ phone_id: this.phoneId, code: err.code, status: err.httpStatus, kind }, 'cloud api: send not accepted');
    if (kind === 'refused') return new SendRefused(refusalReason(err));
    if (kind === 'throttle')
      return new SendThrottled(
        `Meta's rate limit: ${err.message}${err.details ? ` (${err.details})` : ''} (Meta error ${err.code ?? err.httpStatus})`,
      );
    if (kind === 'auth') await this.setState('LOGGED_OUT');
    return new Error(`the Graph API did not take the message: ${err.message} (Meta error ${err.code ?? err.httpStatus}); retried`);
  }

  // What the Cloud API does not have: answered with a 400 that names it.
  editMessage(): Promise<void> {
    return Promise.reject(new CloudApiUnsupported('edit messages'));
  }
  deleteMessage(): Promise<void> {
    return Promise.reject(new CloudApiUnsupported('delete messages for everyone'));
  }
  pinMessage(): Promise<void> {
    return Promise.reject(new CloudApiUnsupported('pin messages'));
  }
  requestPairingCode(): Promise<string> {
    return Promise.reject(new CloudApiUnsupported('pair by code (the number is connected by its access token)'));
  }
  groupParticipantsUpdate(): Promise<ParticipantResult[]> {
    return Promise.reject(new CloudApiUnsupported('manage group participants'));
  }
  groupCreate(): Promise<GroupMetadata> {
    return Promise.reject(new CloudApiUnsupported('create groups'));
  }
  groupInviteCode(): Promise<string> {
    return Promise.reject(new CloudApiUnsupported('make group invite links'));
  }
  groupSettingsUpdate(): Promise<void> {
    return Promise.reject(new CloudApiUnsupported('change group settings'));
  }
  groupAcceptInvite(): Promise<string> {
    return Promise.reject(new CloudApiUnsupported('join groups'));
  }
  groupLeave(): Promise<void> {
    return Promise.reject(new CloudApiUnsupported('leave groups'));
  }
  /** The Cloud API keeps no history to fetch: what arrived through the webhook is all there is. */
  async fetchMessageHistory(): Promise<IngestMessage[]> {
    return [];
  }
  async resyncAppState(): Promise<{ chats: ChatInfo[]; groups: GroupMetadata[] }> {
    return { chats: [], groups: [] };
  }
}
