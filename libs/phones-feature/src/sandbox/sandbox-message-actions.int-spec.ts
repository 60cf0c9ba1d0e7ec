import { randomUUID } from 'node:crypto';
import { randomSuffix, testEnv, useTestDatabase } from '@mapi/testing';
import { connect, type NatsConnection } from 'nats';
import type { MessageChange, MessageKey } from '../connector/phone-connector';
import { SandboxConnector } from './sandbox-connector';
import { newUniqueId, SandboxNetwork } from './sandbox-network';

/**
 * The sandbox network's message actions, in real Postgres and NATS: what the phone does to a message
 * comes back as its own messages.update (as a real network echoes it), once, and a forward is a new
 * message marked forwarded. A retried action does not act twice.
 */
describe('SandboxConnector message actions (integration)', () => {
  const t = useTestDatabase('phones_sandbox_actions');
  const phoneId = `phone-actions${randomSuffix(4)}`;
  const me = '15550004444@c.us';
  const chat = '15550005555@c.us';
  let nc: NatsConnection;
  let network: SandboxNetwork;
  let connector: SandboxConnector;
  const updates: MessageChange[] = [];
  const upserts: { unique_id: string; is_forwarded?: boolean | null; body: string | null }[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: testEnv.natsUrl() });
    network = new SandboxNetwork(t.prisma);
    await network.ensureDevice(phoneId, randomUUID());
    await network.setDevice(phoneId, { state: 'CONNECTED', number: '15550004444' });
    connector = new SandboxConnector(phoneId, randomUUID(), network, nc, `actions-${randomSuffix()}`, 60_000);
    connector.on('messages.update', async (changes) => void updates.push(...changes));
    connector.on('messages.upsert', async ({ messages }) => void upserts.push(...messages));
    await connector.connect();
  });
  afterAll(async () => {
    await connector.disconnect();
    await nc.close();
  });

  const message = async (fromMe: boolean, body = 'hello'): Promise<MessageKey> => {
    const row = await network.addMessage(phoneId, {
      chat_id: chat,
      unique_id: newUniqueId(),
      from_me: fromMe,
      sender_phone: fromMe ? me : chat,
      body,
      message_type: 'chat',
      timestamp: new Date().toISOString(),
    });
    await connector.sync();
    return { chat_id: chat, unique_id: row.unique_id, from_me: fromMe, sender_phone: row.sender };
  };
  const settle = () => connector.sync();

  it("an edit of the phone's message comes back once as messages.update; the same edit again changes nothing", async () => {
    const key = await message(true);
    updates.length = 0;
    await connector.editMessage(key, 'edited');
    await settle();
    await connector.editMessage(key, 'edited');
    await settle();
    expect(updates).toEqual([{ chat_id: chat, unique_id: key.unique_id, from_me: true, edit: { body: 'edited' } }]);
    expect((await network.message(phoneId, key.unique_id))?.body).toBe('edited');
    expect(await t.prisma.sandboxChange.count({ where: { phone_id: phoneId } })).toBe(0);
  });

  it("a deletion comes back once; editing or deleting another person's message is refused by the network", async () => {
    const key = await message(true);
    const theirs = await message(false);
    updates.length = 0;
    await connector.deleteMessage(key);
    await connector.deleteMessage(key);
    await settle();
    expect(updates).toEqual([{ chat_id: chat, unique_id: key.unique_id, from_me: true, deleted: true }]);
    await expect(connector.editMessage(theirs, 'nope')).rejects.toThrow(/own messages/);
    await expect(connector.deleteMessage(theirs)).rejects.toThrow(/own messages/);
    await expect(connector.editMessage({ ...key, unique_id: 'MISSING' }, 'x')).rejects.toThrow(/no message/);
  });

  it('a reaction comes back with the phone as sender; the same reaction keeps its id (one reaction, not two)', async () => {
    const key = await message(false);
    updates.length = 0;
    await connector.reactToMessage(key, '👍');
    await connector.reactToMessage(key, '👍');
    await connector.reactToMessage(key, '');
    await settle();
    expect(updates.map((u) => u.reaction?.reaction)).toEqual(['👍', '👍', '']);
    expect(updates[0].reaction).toMatchObject({ sender_phone: me });
    expect(updates[1].reaction?.reaction_id).toBe(updates[0].reaction?.reaction_id);
    expect(updates[2].reaction?.reaction_id).not.toBe(updates[0].reaction?.reaction_id);
  });

  it('a pin comes back with its 7 days, an unpin without expiry; a message the network does not hold is refused', async () => {
    const key = await message(false);
    updates.length = 0;
    await connector.pinMessage(key, true);
    await connector.pinMessage(key, false);
    await settle();
    expect(updates.map((u) => [u.unique_id, u.from_me, u.pin?.pinned])).toEqual([
      [key.unique_id, false, true],
      [key.unique_id, false, false],
    ]);
    const [pin, unpin] = updates.map((u) => u.pin as NonNullable<(typeof u)['pin']>);
    expect(Date.parse(pin.expires_at as string) - Date.parse(pin.at)).toBe(604_800_000);
    expect(unpin.expires_at).toBeNull();
    expect(Date.parse(unpin.at)).toBeGreaterThanOrEqual(Date.parse(pin.at));
    await expect(connector.pinMessage({ ...key, unique_id: 'MISSING' }, true)).rejects.toThrow(/no message/);
  });

  it('a forward is a new message of the target chat marked forwarded; a repeat with its id returns the first', async () => {
    const key = await message(false, 'worth sharing');
    upserts.length = 0;
    const id = randomUUID();
    const first = await connector.forwardMessage(key, '15550006666@c.us', { text: 'worth sharing' }, id);
    const again = await connector.forwardMessage(key, '15550006666@c.us', { text: 'worth sharing' }, id);
    await settle();
    expect(again).toEqual({ ...first, duplicate: true });
    expect(upserts).toEqual([
      expect.objectContaining({
        unique_id: first.unique_id,
        body: 'worth sharing',
        is_forwarded: true,
        from_me: true,
        chat_id: '15550006666@c.us',
      }),
    ]);
  });

  it('changes made faster than the phone reads them all come back once, in the order made, with fewer reads than nudges', async () => {
    const keys = await Promise.all(Array.from({ length: 40 }, () => message(false)));
    await settle();
    updates.length = 0;
    const pending = jest.spyOn(network.changes, 'pending');
    try {
      await Promise.all(keys.map((key, i) => connector.reactToMessage(key, i % 2 ? '👍' : '🔥'))); // 40 nudges
      await settle();
      expect(
        [...updates]
          .sort((a, b) => keys.findIndex((k) => k.unique_id === a.unique_id) - keys.findIndex((k) => k.unique_id === b.unique_id))
          .map((u) => u.reaction?.reaction),
      ).toEqual(keys.map((_, i) => (i % 2 ? '👍' : '🔥')));
      expect(new Set(updates.map((u) => u.unique_id)).size).toBe(40);
      // a nudge that finds a read already queued joins it (one read per nudge kept the change path behind)
      expect(pending.mock.calls.length).toBeLessThan(40);
    } finally {
      pending.mockRestore();
    }
  });
});
