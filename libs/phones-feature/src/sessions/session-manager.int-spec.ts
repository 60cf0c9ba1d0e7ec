import { legacySessionSubject, sessionSubject } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { SessionCommands } from '@mapi/events';
import { randomSuffix, testEnv } from '@mapi/testing';
import { JSONCodec, StringCodec, connect, type NatsConnection } from 'nats';
import pino from 'pino';
import type { PhoneConnector } from '../connector/phone-connector';
import type { PhoneRepository } from '../repositories/phone-repository';
import type { IngestPublisher } from './ingest-publisher';
import type { PhoneLeases } from './phone-leases';
import type { PhoneStateUpdater } from './phone-state-updater';
import { SessionManager } from './session-manager';

/** The receiving side of session commands, on real NATS, with one session of a stand-in connector. */
describe('SessionManager commands', () => {
  const namespace = `sessions-${randomSuffix()}`;
  const phone = { phone_id: `phone-cmd${randomSuffix(4)}`, org_id: '00000000-0000-4000-8000-000000000001', connector: 'fake' };
  const sent: unknown[] = [];
  const connector = {
    phoneId: phone.phone_id,
    on: () => undefined,
    connect: async () => undefined,
    disconnect: async () => undefined,
    isConnected: async () => true,
    sendMessage: async (chatId: string, content: unknown, id: string) => {
      sent.push({ chatId, content, id });
      return { unique_id: 'U1', timestamp: '2026-01-01T00:00:00.000Z', duplicate: false };
    },
  } as unknown as PhoneConnector;
  let nc: NatsConnection;
  let manager: SessionManager;
  const codec = JSONCodec<unknown>();
  const raw = async (subject: string, data: Uint8Array) => codec.decode((await nc.request(subject, data, { timeout: 2_000 })).data);

  beforeAll(async () => {
    nc = await connect({ servers: testEnv.natsUrl() });
    manager = new SessionManager({
      nc,
      namespace,
      prisma: {} as PrismaClient,
      phones: { activeSessions: async () => [phone], find: async () => ({ org_phone: '15550001111@c.us' }) } as unknown as PhoneRepository,
      leases: { acquire: async () => true, renew: async () => true, release: async () => undefined } as unknown as PhoneLeases,
      publisher: {} as IngestPublisher,
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

  it('answers a valid command on the versioned subject, through the typed sender', async () => {
    const commands = new SessionCommands(nc, namespace);
    expect(sessionSubject(namespace, phone.phone_id)).toBe(`${namespace}.phones.v1.session.${phone.phone_id}`);
    expect(await commands.send(phone.phone_id, 'ping')).toEqual({ ok: true });
    const content = { text: 'hi' };
    expect(await commands.send(phone.phone_id, { cmd: 'send', chat_id: '15550002222@c.us', content, sent_message_id: 'job-1' })).toEqual({
      ok: true,
      sent: { unique_id: 'U1', timestamp: '2026-01-01T00:00:00.000Z', duplicate: false },
    });
    expect(sent).toEqual([{ chatId: '15550002222@c.us', content, id: 'job-1' }]);
  });

  it('answers a malformed command with an error naming what is wrong, and keeps serving', async () => {
    const subject = sessionSubject(namespace, phone.phone_id);
    expect(await raw(subject, codec.encode({ cmd: 'send', chat_id: '1@c.us' }))).toEqual({
      ok: false,
      reason: 'error',
      message: expect.stringMatching(/^Malformed session command: .*command\.content/),
    });
    expect(await raw(subject, codec.encode({ cmd: 'self-destruct' }))).toMatchObject({
      ok: false,
      reason: 'error',
      message: expect.stringContaining('command.cmd'),
    });
    expect(await raw(subject, StringCodec().encode('not json'))).toMatchObject({ ok: false, reason: 'error' });
    expect(sent).toHaveLength(1); // nothing malformed reached the connector
    expect(await raw(subject, codec.encode({ cmd: 'ping' }))).toEqual({ ok: true });
  });

  it('still answers on the unversioned subject, for senders of the previous release', async () => {
    expect(await raw(legacySessionSubject(namespace, phone.phone_id), codec.encode({ cmd: 'ping' }))).toEqual({ ok: true });
  });
});
