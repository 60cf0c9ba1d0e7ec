import { randomUUID } from 'node:crypto';
import { randomSuffix, testEnv, useTestDatabase } from '@mapi/testing';
import { connect, type NatsConnection } from 'nats';
import { SandboxConnector, type SyncScope } from './sandbox-connector';
import { newUniqueId, SandboxNetwork } from './sandbox-network';

/**
 * The sandbox connector's syncs in real Postgres and NATS: a change is handed on after the message it
 * changes, whichever of the two nudges (the message's `messages`, the change's `changes`) comes first,
 * and whatever a sync hands on is reported once.
 */
describe('SandboxConnector syncs (integration)', () => {
  const t = useTestDatabase('phones_sandbox_sync');
  const phoneId = `phone-sync${randomSuffix(6)}`;
  const chat = '15550006666@c.us';
  let nc: NatsConnection;
  let network: SandboxNetwork;
  let connector: SandboxConnector;
  const log: string[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: testEnv.natsUrl() });
    network = new SandboxNetwork(t.prisma);
    await network.ensureDevice(phoneId, randomUUID());
    await network.setDevice(phoneId, { state: 'CONNECTED', number: '15550007777' });
    connector = new SandboxConnector(phoneId, randomUUID(), network, nc, `sync-${randomSuffix()}`, 60_000);
    connector.on('messages.upsert', async ({ messages }) => void log.push(...messages.map((m) => `upsert ${m.unique_id}`)));
    connector.on('messages.update', async (changes) => void log.push(...changes.map((c) => `update ${c.unique_id}`)));
    await connector.connect();
  });
  afterAll(async () => {
    await connector.disconnect();
    await nc.close();
  });

  const messageWithReaction = async () => {
    const row = await network.addMessage(phoneId, {
      chat_id: chat,
      unique_id: newUniqueId(),
      from_me: false,
      sender_phone: chat,
      body: 'hi',
      message_type: 'chat',
      timestamp: new Date().toISOString(),
    });
    await network.changes.react({ phone_id: phoneId, chat_id: chat, unique_id: row.unique_id, from_me: false }, chat, '👍');
    return row.unique_id;
  };

  it.each<[SyncScope, SyncScope]>([
    ['messages', 'changes'],
    ['changes', 'messages'],
  ])('nudges %s then %s: the message is handed on before its reaction, each once', async (first, second) => {
    log.length = 0;
    const id = await messageWithReaction();
    await Promise.all([connector.sync(first), connector.sync(second)]);
    await connector.sync('changes');
    expect(log).toEqual([`upsert ${id}`, `update ${id}`]);
    expect(await t.prisma.sandboxChange.count({ where: { phone_id: phoneId } })).toBe(0);
  });

  it('a sync of changes alone (no message nudged since the last read of messages) hands on the changes only; the messages wait for theirs', async () => {
    log.length = 0;
    const row = await network.addMessage(phoneId, {
      chat_id: chat,
      unique_id: newUniqueId(),
      from_me: false,
      sender_phone: chat,
      body: 'later',
      message_type: 'chat',
      timestamp: new Date().toISOString(),
    });
    await connector.sync('messages');
    log.length = 0;
    await network.changes.react({ phone_id: phoneId, chat_id: chat, unique_id: row.unique_id, from_me: false }, chat, '🔥');
    const fresh = await network.addMessage(phoneId, {
      chat_id: chat,
      unique_id: newUniqueId(),
      from_me: false,
      sender_phone: chat,
      body: 'unnudged',
      message_type: 'chat',
      timestamp: new Date().toISOString(),
    });
    await connector.sync('changes');
    expect(log).toEqual([`update ${row.unique_id}`]);
    await connector.sync('messages');
    expect(log).toEqual([`update ${row.unique_id}`, `upsert ${fresh.unique_id}`]);
  });
});
