import type { ObservableResult } from '@opentelemetry/api';
import {
  METRICS,
  legacySessionSubject,
  metricOptions,
  readSessionCommand,
  sessionSubject,
  type IngestEvent,
  type SessionAnswer,
  type SessionCommand,
} from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { GaugeSeries, isDependencyUnavailable, meter, outageLog } from '@mapi/platform';
import { JSONCodec, type NatsConnection, type Subscription } from 'nats';
import type { Logger } from 'pino';
import type { PhoneConnector } from '../connector/phone-connector';
import type { PhoneRepository } from '../repositories/phone-repository';
import type { IngestPublisher } from './ingest-publisher';
import type { PhoneLeases } from './phone-leases';
import type { PhoneStateUpdater } from './phone-state-updater';
import { groupCommand } from './group-commands';
import { answerMessageCommand } from './message-command';
import { runResync } from './resync';
import { SentBy } from './sent-by';
import { SendRefused, SendThrottled } from '../cloud-api/graph-errors';

export type ConnectorFactory = (phone: { phone_id: string; org_id: string; connector: string }) => PhoneConnector | null;
const codec = JSONCodec<unknown>();
const CHUNK = 200;

interface Session {
  phone: { phone_id: string; org_id: string; connector: string };
  connector: PhoneConnector;
  orgPhone: string;
  commands: Subscription[];
  /** The connection's state as the connector last reported it ('starting' until it does). */
  state: string;
  /** Who sent the messages this session sends, until their reports are published (sent-by.ts). */
  sentBy: SentBy;
}

/**
 * Runs the connector sessions of the phones this replica holds a lease on: scans for phones whose
 * session runs nowhere, takes their lease, starts them, renews the leases, and stops a session
 * whose lease it lost. Connector events go to JetStream (ingest) or the phone row (state).
 */
export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  private readonly sessionStates = new GaugeSeries();
  private timer?: NodeJS.Timeout;
  private scanning?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly deps: {
      nc: NatsConnection;
      namespace: string;
      prisma: PrismaClient;
      phones: PhoneRepository;
      leases: PhoneLeases;
      publisher: IngestPublisher;
      states: PhoneStateUpdater;
      factory: ConnectorFactory;
      logger: Logger;
      scanMs: number;
    },
  ) {
    // mapi.phone.sessions (GET /metrics): the sessions this replica runs, by their connection's state
    this.sessionsGauge.addCallback(this.observeSessions);
  }

  private readonly sessionsGauge = meter().createObservableGauge(METRICS.phoneSessions.name, metricOptions(METRICS.phoneSessions));
  private readonly observeSessions = (result: ObservableResult) => {
    const byState = new Map<string, number>();
    for (const session of this.sessions.values()) byState.set(session.state, (byState.get(session.state) ?? 0) + 1);
    // A state no session is in any more reads 0, not its last count.
    for (const [n, attributes] of this.sessionStates.withZeros([...byState].map(([state, n]) => [n, { state }] as const)))
      result.observe(n, attributes);
  };

  start(): void {
    const tick = async () => {
      if (this.stopped) return;
      this.scanning = this.scan().catch((err) => this.deps.logger.warn({ err }, 'session scan failed'));
      await this.scanning;
      if (!this.stopped) this.timer = setTimeout(tick, this.deps.scanMs);
    };
    void tick();
  }

  owned(): string[] {
    return [...this.sessions.keys()];
  }

  private async scan(): Promise<void> {
    const wanted = await this.deps.phones.activeSessions();
    const wantedIds = new Set(wanted.map((p) => p.phone_id));
    for (const [phoneId] of this.sessions) {
      if (!wantedIds.has(phoneId) || !(await this.deps.leases.renew(phoneId))) await this.stopSession(phoneId, !wantedIds.has(phoneId));
    }
    for (const phone of wanted) {
      if (this.stopped || this.sessions.has(phone.phone_id)) continue;
      if (await this.deps.leases.acquire(phone.phone_id)) await this.startSession(phone);
    }
  }

  private async startSession(phone: Session['phone']): Promise<void> {
    const connector = this.deps.factory(phone);
    if (!connector) {
      await this.deps.leases.release(phone.phone_id);
      return;
    }
    const row = await this.deps.phones.find(phone.org_id, phone.phone_id);
    const session: Session = { phone, connector, orgPhone: row?.org_phone ?? '', commands: [], state: 'starting', sentBy: new SentBy() };
    this.wire(session);
    // The versioned subject, and for one release the unversioned one that senders of the previous release use.
    session.commands = [sessionSubject, legacySessionSubject].map((subject) =>
      this.deps.nc.subscribe(subject(this.deps.namespace, phone.phone_id), {
        callback: (_err, msg) => void this.answer(session, msg.data).then((a) => msg.respond(codec.encode(a))),
      }),
    );
    this.sessions.set(phone.phone_id, session);
    try {
      await connector.connect();
      this.deps.logger.info({ phone_id: phone.phone_id }, 'session started');
    } catch (err) {
      this.deps.logger.warn({ err, phone_id: phone.phone_id }, 'session failed to start');
      await this.stopSession(phone.phone_id, true);
    }
  }

  private wire(s: Session): void {
    const base = () => ({ org_id: s.phone.org_id, phone_id: s.phone.phone_id, org_phone: s.orgPhone });
    const publish = (e: IngestEvent) => this.deps.publisher.publish(e);
    s.connector.on('connection.update', async (u) => {
      if (u.number) s.orgPhone = `${u.number}@c.us`;
      s.state = u.state;
      await this.deps.states.apply(s.phone.org_id, s.phone.phone_id, u);
    });
    s.connector.on('messages.upsert', async ({ messages: reported, type }) => {
      const messages = s.sentBy.stamp(reported); // a message this session sent carries its sender (performed_by)
      for (let i = 0; i < messages.length; i += CHUNK) {
        await publish({ ...base(), kind: 'messages-upsert', type, messages: messages.slice(i, i + CHUNK) });
      }
    });
    s.connector.on('message-receipt.update', async (receipts) => {
      await Promise.all(receipts.map((r) => publish({ ...base(), kind: 'receipt', ...r })));
    });
    s.connector.on('messages.update', async (changes) => {
      // Published together, not one acknowledgement after another (one round trip each caps the session's
      // change path below the rate it must take): one connection keeps them in order on the stream,
      // so two edits of a message are ingested in the order they were made. If one fails the whole
      // update is handed on again, and JetStream drops the copies already stored (the id is the hash).
      const events: IngestEvent[] = [];
      for (const c of changes) {
        if (c.edit)
          events.push({ ...base(), kind: 'edit', chat_id: c.chat_id, unique_id: c.unique_id, from_me: c.from_me, body: c.edit.body });
        if (c.deleted) events.push({ ...base(), kind: 'delete', chat_id: c.chat_id, unique_id: c.unique_id, from_me: c.from_me });
        if (c.reaction)
          events.push({
            ...base(),
            kind: 'reaction',
            chat_id: c.chat_id,
            unique_id: c.unique_id,
            from_me: c.from_me,
            reaction: c.reaction,
          });
        if (c.poll_results)
          events.push({
            ...base(),
            kind: 'poll-results',
            chat_id: c.chat_id,
            unique_id: c.unique_id,
            from_me: c.from_me,
            poll_results: c.poll_results,
          });
        if (c.pin)
          events.push({
            ...base(),
            kind: 'pin',
            chat_id: c.chat_id,
            unique_id: c.unique_id,
            from_me: c.from_me,
            pin: c.pin.pinned,
            at: c.pin.at,
            expires_at: c.pin.expires_at,
          });
      }
      await Promise.all(events.map(publish));
    });
    s.connector.on('chats.upsert', (chats) => publish({ ...base(), kind: 'chats-upsert', chats }));
    s.connector.on('groups.upsert', (groups) => publish({ ...base(), kind: 'groups-upsert', groups }));
    s.connector.on('group-notifications.upsert', (notifications) => publish({ ...base(), kind: 'group-notifications', notifications }));
  }

  /** A command as received: checked against the contract, so a malformed one is answered with an error, not thrown. */
  private async answer(s: Session, data: Uint8Array): Promise<SessionAnswer> {
    let raw: unknown;
    try {
      raw = codec.decode(data);
    } catch {
      raw = undefined; // not JSON: answered as malformed below
    }
    const read = readSessionCommand(raw);
    if ('answer' in read) {
      this.deps.logger.warn({ phone_id: s.phone.phone_id, message: read.answer.message }, 'malformed session command');
      return read.answer;
    }
    return this.command(s, read.command);
  }

  private async command(s: Session, command: SessionCommand): Promise<SessionAnswer> {
    try {
      switch (command.cmd) {
        case 'ping':
          return { ok: true };
        case 'restart':
          await s.connector.disconnect();
          await s.connector.connect();
          return { ok: true };
        case 'logout':
          await s.connector.logout();
          await s.connector.connect(); // back to QR
          return { ok: true };
        case 'group-participants':
          if (!(await s.connector.isConnected())) return { ok: false, reason: 'disconnected', message: 'The phone is not connected' };
          return { ok: true, results: await s.connector.groupParticipantsUpdate(command.chat_id, command.participants, command.action) };
        case 'send': {
          if (!(await s.connector.isConnected())) return { ok: false, reason: 'disconnected', message: 'The phone is not connected' };
          if (command.content.template && s.phone.connector !== 'cloud_api')
            return { ok: false, reason: 'refused', message: 'Templates are sent by Cloud API phones only (docs/services/cloud-api.md)' };
          s.sentBy.note(command.sent_message_id, command.performed_by);
          return { ok: true, sent: await s.connector.sendMessage(command.chat_id, command.content, command.sent_message_id) };
        }
        case 'send-window': {
          const refusal = (await s.connector.freeFormRefusal?.(command.chat_id)) ?? null;
          return refusal ? { ok: false, reason: 'refused', message: refusal } : { ok: true };
        }
        case 'chat-read':
          if (!(await s.connector.isConnected())) return { ok: false, reason: 'disconnected', message: 'The phone is not connected' };
          await s.connector.markChatRead?.(command.chat_id);
          return { ok: true };
        case 'pairing-code':
          return { ok: true, pairing_code: await s.connector.requestPairingCode(command.number) };
        case 'group-create':
        case 'group-invite-code':
        case 'group-settings':
        case 'group-accept-invite':
        case 'group-leave':
          if (!(await s.connector.isConnected())) return { ok: false, reason: 'disconnected', message: 'The phone is not connected' };
          return await groupCommand(s.connector, command);
        case 'resync':
          if (!(await s.connector.isConnected())) return { ok: false, reason: 'disconnected', message: 'The phone is not connected' };
          void runResync(
            s.connector,
            s.phone.org_id,
            this.deps.prisma,
            (e) =>
              this.deps.publisher.publish({
                org_id: s.phone.org_id,
                phone_id: s.phone.phone_id,
                org_phone: s.orgPhone,
                ...e,
              } as IngestEvent),
            this.deps.logger,
          );
          return { ok: true };
        case 'message-edit':
        case 'message-delete':
        case 'message-react':
        case 'message-pin':
        case 'message-forward':
          if (!(await s.connector.isConnected())) return { ok: false, reason: 'disconnected', message: 'The phone is not connected' };
          if (command.cmd === 'message-forward') s.sentBy.note(command.sent_message_id, command.performed_by);
          return await answerMessageCommand(s.connector, command);
      }
    } catch (err) {
      if (isDependencyUnavailable(err)) {
        outageLog(this.deps.logger).warn('session command failed: database unavailable', {
          err,
          phone_id: s.phone.phone_id,
          cmd: command.cmd,
        });
        return { ok: false, reason: 'unavailable', message: (err as Error).message };
      }
      this.deps.logger.warn({ err, phone_id: s.phone.phone_id, cmd: command.cmd }, 'session command failed');
      // refused for good by the network (the Cloud API's 24-hour window, …): the queue fails the job at once
      if (err instanceof SendRefused) return { ok: false, reason: 'refused', message: err.message };
      // refused for now by the network's rate limits: the queue slows the phone down and sends it again
      if (err instanceof SendThrottled) return { ok: false, reason: 'throttled', message: err.message };
      return { ok: false, reason: 'error', message: (err as Error).message };
    }
  }

  private async stopSession(phoneId: string, release: boolean): Promise<void> {
    const s = this.sessions.get(phoneId);
    if (!s) return;
    this.sessions.delete(phoneId);
    for (const sub of s.commands) sub.unsubscribe();
    await s.connector.disconnect().catch(() => undefined);
    if (release) await this.deps.leases.release(phoneId).catch(() => undefined);
    this.deps.logger.info({ phone_id: phoneId }, 'session stopped');
  }

  /** Graceful stop: sessions end and their leases are released, so another replica takes over at once. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.sessionsGauge.removeCallback(this.observeSessions);
    await this.scanning;
    await Promise.all([...this.sessions.keys()].map((id) => this.stopSession(id, true)));
  }
}
