import { timingSafeEqual } from 'node:crypto';
import { ErrorCode, Errors, ServiceError, type IngestEvent } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import type { CallbackLimit } from './callback-limit';
import type { CloudApiSecrets, CloudApiStore } from './cloud-api-store';
import type { CustomerWindows } from './customer-windows';
import { mapCallback } from './inbound-mapping';
import type { ReceivedMediaQueue } from './received-media';
import type { SentMessages } from './sent-messages';
import { checkSignature } from './signature';

export interface IngestSink {
  publish(event: IngestEvent): Promise<void>;
}

/** How long a phone's secrets serve its callbacks before they are read again: a deleted or reset phone's address stops within it. */
const SECRETS_TTL_MS = 2_000;
const forbidden = (message: string) => new ServiceError(ErrorCode.FORBIDDEN_ERROR, 403, message);
const notCloudApi = () => Errors.notFound('No Cloud API phone has this webhook address');
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Meta's callbacks for one Cloud API phone, served by any phones replica: the handshake, and the
 * signed callbacks turned into ingest events published to JetStream (the same durable path as the
 * other connectors) before the answer. Statuses of sends name Meta's wamid: mapped to the message
 * sent through the queue; a `failed` one keeps Meta's errors on the send.
 */
export class CloudApiWebhook {
  constructor(
    private readonly store: CloudApiStore,
    private readonly sent: SentMessages,
    private readonly media: ReceivedMediaQueue,
    private readonly ingest: IngestSink,
    private readonly logger: Logger,
    /** Customers' windows moved by their messages; the per-phone rate limit (both absent in tests that need neither). */
    private readonly extras: { windows?: CustomerWindows; limit?: CallbackLimit } = {},
  ) {}

  async verify(phoneId: string, query: { 'hub.mode': string; 'hub.verify_token': string; 'hub.challenge': string }): Promise<string> {
    const phone = await this.store.load(phoneId);
    if (!phone) throw notCloudApi();
    if (query['hub.mode'] !== 'subscribe') throw forbidden('hub.mode must be subscribe');
    if (!sameText(query['hub.verify_token'], phone.verify_token)) throw forbidden('The verify token does not match the phone’s');
    return query['hub.challenge'];
  }

  /** A phone's opened secrets for the callbacks of the next SECRETS_TTL_MS (two queries and three decryptions fewer per callback). */
  private readonly secrets = new Map<string, { phone: CloudApiSecrets; until: number }>();

  private async phoneOf(phoneId: string): Promise<CloudApiSecrets | null> {
    const now = Date.now();
    const held = this.secrets.get(phoneId);
    if (held && held.until > now) return held.phone;
    const phone = await this.store.load(phoneId);
    if (this.secrets.size > 10_000) for (const [id, h] of this.secrets) if (h.until <= now) this.secrets.delete(id);
    // held once connected (its org_phone known): what a callback reads of the phone does not change after that
    if (phone?.org_phone) this.secrets.set(phoneId, { phone, until: now + SECRETS_TTL_MS });
    else this.secrets.delete(phoneId);
    return phone;
  }

  async receive(phoneId: string, rawBase64: string, signature: string | undefined): Promise<number> {
    this.extras.limit?.take(phoneId);
    const phone = await this.phoneOf(phoneId);
    if (!phone) throw notCloudApi();
    const raw = Buffer.from(rawBase64, 'base64');
    const check = checkSignature(raw, signature, phone.app_secret);
    if (check === 'missing') throw Errors.unauthorized('X-Hub-Signature-256 is missing or malformed: callbacks must be signed');
    if (check === 'invalid') throw forbidden('X-Hub-Signature-256 does not match the body signed with the app secret');
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString('utf8'));
    } catch {
      throw Errors.validation({ body: { message: 'Malformed JSON' } }, 'Malformed JSON');
    }
    const mapped = mapCallback(payload, phone.phone_number_id);
    const wamids = [
      ...mapped.statuses.map((s) => s.wamid),
      ...mapped.reactions.map((r) => r.target_wamid),
      ...mapped.messages.flatMap((m) => (m.quoted_message_id ? [m.quoted_message_id] : [])),
    ];
    const ours = await this.sent.byWamids(phoneId, wamids);
    const base = { org_id: phone.org_id, phone_id: phoneId, org_phone: phone.org_phone ?? '' };
    const events: IngestEvent[] = [];
    const messages = mapped.messages.map((m) => ({
      ...m,
      quoted_message_id: m.quoted_message_id ? (ours.get(m.quoted_message_id)?.unique_id ?? m.quoted_message_id) : null,
    }));
    // a message with a file waits (durably) for the phone's session to fetch it; the others go at once
    const withMedia = new Map(mapped.media.map((m) => [m.wamid, m]));
    for (const m of messages) {
      const media = withMedia.get(m.unique_id);
      if (media) await this.media.hold(phoneId, media, m);
    }
    const now = messages.filter((m) => !withMedia.has(m.unique_id));
    if (now.length > 0) events.push({ ...base, kind: 'messages-upsert', type: 'notify', messages: now });
    for (const r of mapped.reactions) {
      const mine = ours.get(r.target_wamid);
      events.push({
        ...base,
        kind: 'reaction',
        chat_id: r.chat_id,
        unique_id: mine?.unique_id ?? r.target_wamid,
        from_me: !!mine,
        reaction: r.reaction,
      });
    }
    for (const s of mapped.statuses) {
      const mine = ours.get(s.wamid);
      if (!mine) continue; // not sent through this service (Meta's own tools, another app): nothing of ours to move
      if (s.status === 'failed') await this.sent.markFailed(phoneId, s.wamid, s.errors);
      events.push({ ...base, kind: 'receipt', chat_id: mine.chat_id, unique_id: mine.unique_id, from_me: true, ack: s.ack, at: s.at });
    }
    // the customers' windows first: a send right after the answer sees the window this callback opened
    await this.extras.windows?.received(phoneId, messages);
    // in order on one connection: a message before a reaction to it, statuses after
    for (const e of events) await this.ingest.publish(e);
    if (mapped.skipped > 0) this.logger.debug({ phone_id: phoneId, skipped: mapped.skipped }, 'cloud api callback: changes left out');
    return events.length;
  }
}
