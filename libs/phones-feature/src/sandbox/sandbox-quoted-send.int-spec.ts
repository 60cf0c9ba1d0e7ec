import { randomUUID } from 'node:crypto';
import { ServiceError, type IngestMessage, type RequestContext } from '@mapi/contracts';
import { randomSuffix, testEnv, useTestDatabase } from '@mapi/testing';
import { connect, type NatsConnection } from 'nats';
import { SandboxDeliver } from '../usecases/sandbox-deliver/sandbox-deliver.usecase';
import { SandboxConnector } from './sandbox-connector';
import { newUniqueId, SandboxNetwork } from './sandbox-network';
import { SandboxPhones } from './sandbox-phones';

/**
 * A reply sent through a sandbox phone (reply_to) in real Postgres and NATS: the network keeps the
 * quote and hands the sent message back with quoted_message_id (the quoted message's unique_id), as a
 * Baileys phone's echo carries contextInfo.stanzaId; a retried send and the history keep it too. A
 * customer's reply delivered by the control API (POST /sandbox/messages with quoted_unique_id) alike.
 */
describe('SandboxConnector quoted sends (integration)', () => {
  const t = useTestDatabase('phones_sandbox_quoted');
  const phoneId = `phone-quoted${randomSuffix(6)}`;
  const me = '15550008888@c.us';
  const chat = '15550009999@c.us';
  let nc: NatsConnection;
  let network: SandboxNetwork;
  let connector: SandboxConnector;
  const upserts: IngestMessage[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: testEnv.natsUrl() });
    network = new SandboxNetwork(t.prisma);
    await network.ensureDevice(phoneId, randomUUID());
    await network.setDevice(phoneId, { state: 'CONNECTED', number: '15550008888' });
    connector = new SandboxConnector(phoneId, randomUUID(), network, nc, `quoted-${randomSuffix()}`, 60_000);
    connector.on('messages.upsert', async ({ messages }) => void upserts.push(...messages));
    await connector.connect();
  });
  afterAll(async () => {
    await connector.disconnect();
    await nc.close();
  });

  const received = async (body: string) => {
    const row = await network.addMessage(phoneId, {
      chat_id: chat,
      unique_id: newUniqueId(),
      from_me: false,
      sender_phone: chat,
      body,
      message_type: 'chat',
      timestamp: new Date().toISOString(),
    });
    await connector.sync();
    return row.unique_id;
  };
  const handedOn = (uniqueId: string) => upserts.filter((m) => m.unique_id === uniqueId);

  it('a reply by message_id comes back with the quoted unique_id, once; a retried send is the same message', async () => {
    const quoted = await received('Where is my parcel?');
    const sendId = randomUUID();
    const sent = await connector.sendMessage(chat, { text: 'It ships today', reply_to: `false_${chat}_${quoted}` }, sendId);
    await connector.sync();
    expect(handedOn(sent.unique_id)).toEqual([
      expect.objectContaining({
        from_me: true,
        sender_phone: me,
        body: 'It ships today',
        quoted_message_id: quoted,
        sent_message_id: sendId,
      }),
    ]);
    const again = await connector.sendMessage(chat, { text: 'It ships today', reply_to: `false_${chat}_${quoted}` }, sendId);
    expect(again).toMatchObject({ unique_id: sent.unique_id, duplicate: true });
    expect((await network.message(phoneId, sent.unique_id))?.quoted_message_id).toBe(quoted);
    // The history the phone reads back (a resync) keeps the quote.
    const history = await connector.fetchMessageHistory(chat, 10);
    expect(history.find((m) => m.unique_id === sent.unique_id)?.quoted_message_id).toBe(quoted);
  });

  it('a reply to its own message, or by a bare unique_id, quotes that id; a send without reply_to quotes nothing', async () => {
    const own = await connector.sendMessage(chat, { text: 'Tracking: 1042' }, randomUUID());
    const reply = await connector.sendMessage(chat, { text: 'See above', reply_to: `true_${chat}_${own.unique_id}` }, randomUUID());
    const theirs = await received('Thanks');
    const bare = await connector.sendMessage(chat, { text: 'You are welcome', reply_to: theirs }, randomUUID());
    await connector.sync();
    expect(handedOn(reply.unique_id)[0]?.quoted_message_id).toBe(own.unique_id);
    expect(handedOn(bare.unique_id)[0]?.quoted_message_id).toBe(theirs);
    expect(handedOn(own.unique_id)).toHaveLength(1);
    expect(handedOn(own.unique_id)[0]).not.toHaveProperty('quoted_message_id');
  });

  it("delivers a customer's reply quoting a message of the chat (quoted_unique_id); another chat's, a deleted or no message is a 422", async () => {
    const deliver = new SandboxDeliver(new SandboxPhones(network, nc, `quoted-${randomSuffix()}`));
    const ctx: RequestContext = {
      org_id: randomUUID(),
      token_id: randomUUID(),
      phone_scope: null,
      phone: { phone_id: phoneId, org_phone: me },
    };
    const question = await connector.sendMessage(chat, { text: 'Which size?' }, randomUUID());
    const reply = await deliver.execute({
      ctx,
      body: { chat_id: '15550009999', from_me: false, body: 'Medium', type: 'chat', quoted_unique_id: question.unique_id },
    });
    await connector.sync();
    expect(handedOn(reply.unique_id)).toEqual([
      expect.objectContaining({ from_me: false, sender_phone: chat, body: 'Medium', quoted_message_id: question.unique_id }),
    ]);
    const elsewhere = await network.addMessage(phoneId, {
      chat_id: '15550001111@c.us',
      unique_id: newUniqueId(),
      from_me: false,
      sender_phone: '15550001111@c.us',
      body: 'another chat',
      message_type: 'chat',
      timestamp: new Date().toISOString(),
    });
    const refused = async (quoted_unique_id: string) => {
      const err = await deliver.execute({ ctx, body: { chat_id: chat, from_me: false, body: 'x', type: 'chat', quoted_unique_id } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ServiceError);
      return (err as ServiceError).toEnvelope();
    };
    const field = (message: RegExp) => ({ status: 422, fields: { 'body.quoted_unique_id': { message: expect.stringMatching(message) } } });
    expect(await refused(elsewhere.unique_id)).toMatchObject(field(/^no message with this unique_id in this chat/));
    expect(await refused('NO_SUCH_MESSAGE')).toMatchObject(field(/^no message with this unique_id in this chat/));
    await connector.deleteMessage({ chat_id: chat, unique_id: question.unique_id, from_me: true, sender_phone: me });
    expect(await refused(question.unique_id)).toMatchObject(field(/deleted/));
    expect((await network.history(phoneId, chat, 50)).filter((m) => m.body === 'x')).toEqual([]);
  });
});
