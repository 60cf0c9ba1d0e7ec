import type { IngestEvent, IngestMessage, MessageKey, OutgoingContent } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { SessionCommands } from '@mapi/events';
import { randomSuffix, testEnv } from '@mapi/testing';
import { connect, type NatsConnection } from 'nats';
import pino from 'pino';
import type { PhoneConnector } from '../connector/phone-connector';
import type { PhoneRepository } from '../repositories/phone-repository';
import type { IngestPublisher } from './ingest-publisher';
import type { PhoneLeases } from './phone-leases';
import type { PhoneStateUpdater } from './phone-state-updater';
import { SessionManager } from './session-manager';

/**
 * The sender of a message (performed_by) through a phone's session, on real NATS: the send and forward commands name
 * it, and the session stamps it on the connector's report of that message (the library's echo, a sync: after the
 * command was answered), on its way to ingest. A stand-in connector reports its sends as the networks do.
 */
describe('SessionManager: the sender of what the session sends', () => {
  const namespace = `sessions-${randomSuffix()}`;
  const phone = { phone_id: `phone-snd${randomSuffix(4)}`, org_id: '00000000-0000-4000-8000-000000000001', connector: 'fake' };
  const published: IngestEvent[] = [];
  let upsert: ((p: { messages: IngestMessage[]; type: 'notify' | 'append' }) => Promise<void>) | undefined;
  const report = (chatId: string, sentMessageId: string | undefined, uniqueId: string, fromMe = true) =>
    upsert?.({
      type: 'notify',
      messages: [
        {
          chat_id: chatId,
          unique_id: uniqueId,
          from_me: fromMe,
          sender_phone: '15550001111@c.us',
          body: 'hi',
          message_type: 'chat',
          timestamp: new Date().toISOString(),
          ack: 1,
          ...(sentMessageId ? { sent_message_id: sentMessageId } : {}),
        },
      ],
    });
  // the report comes after the command's answer, as Baileys' echo and the sandbox's sync do
  const later = (f: () => unknown) => void setTimeout(f, 20);
  const connector = {
    phoneId: phone.phone_id,
    on: (event: string, handler: never) => {
      if (event === 'messages.upsert') upsert = handler;
    },
    connect: async () => undefined,
    disconnect: async () => undefined,
    isConnected: async () => true,
    sendMessage: async (chatId: string, _content: OutgoingContent, id: string) => {
      later(() => report(chatId, id, `U-${id}`));
      return { unique_id: `U-${id}`, timestamp: new Date().toISOString(), duplicate: false };
    },
    forwardMessage: async (_key: MessageKey, chatId: string, _content: unknown, id: string) => {
      later(() => report(chatId, id, `U-${id}`));
      return { unique_id: `U-${id}`, timestamp: new Date().toISOString(), duplicate: false };
    },
  } as unknown as PhoneConnector;
  let nc: NatsConnection;
  let manager: SessionManager;

  beforeAll(async () => {
    nc = await connect({ servers: testEnv.natsUrl() });
    manager = new SessionManager({
      nc,
      namespace,
      prisma: {} as PrismaClient,
      phones: { activeSessions: async () => [phone], find: async () => ({ org_phone: '15550009999@c.us' }) } as unknown as PhoneRepository,
      leases: { acquire: async () => true, renew: async () => true, release: async () => undefined } as unknown as PhoneLeases,
      publisher: { publish: async (e: IngestEvent) => void published.push(e) } as unknown as IngestPublisher,
      states: {} as PhoneStateUpdater,
      factory: () => connector,
      logger: pino({ level: 'silent' }),
      scanMs: 60_000,
    });
    manager.start();
    const end = Date.now() + 5_000;
    while (!manager.owned().length && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  });
  afterAll(async () => {
    await manager.stop();
    await nc.close();
  });

  /** The performed_by of each published message, by unique id. */
  const senders = async (n: number) => {
    const end = Date.now() + 5_000;
    const all = () => published.flatMap((e) => (e.kind === 'messages-upsert' ? e.messages : []));
    while (all().length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    return new Map(all().map((m) => [m.unique_id, m.performed_by ?? null]));
  };

  it('stamps the send and forward commands’ sender on their reports, and nothing on other messages', async () => {
    const commands = new SessionCommands(nc, namespace);
    const key = { chat_id: '15550002222@c.us', unique_id: 'ORIG', from_me: false, sender_phone: '15550002222@c.us' };
    const content = { text: 'hi' };
    expect(
      await commands.send(phone.phone_id, {
        cmd: 'send',
        chat_id: '15550002222@c.us',
        content,
        sent_message_id: 'j1',
        performed_by: 'ana@example.com',
      }),
    ).toMatchObject({ ok: true });
    const tokenId = '6f1c3f4e-8b7a-4d2c-9e1f-0a1b2c3d4e5f';
    await commands.send(phone.phone_id, {
      cmd: 'send',
      chat_id: '15550002222@c.us',
      content,
      sent_message_id: 'j2',
      performed_by: tokenId,
    });
    await commands.send(phone.phone_id, { cmd: 'send', chat_id: '15550002222@c.us', content, sent_message_id: 'j3' }); // a workflow's
    await commands.send(phone.phone_id, {
      cmd: 'message-forward',
      key,
      chat_id: '15550003333@c.us',
      content,
      sent_message_id: 'f1',
      performed_by: 'bo@example.com',
    });
    await report('15550002222@c.us', undefined, 'INCOMING', false); // received: no sender
    await report('15550002222@c.us', undefined, 'TYPED'); // typed on the phone: no sender
    expect(await senders(6)).toEqual(
      new Map([
        ['U-j1', 'ana@example.com'],
        ['U-j2', tokenId],
        ['U-j3', null],
        ['U-f1', 'bo@example.com'],
        ['INCOMING', null],
        ['TYPED', null],
      ]),
    );
  });
});
