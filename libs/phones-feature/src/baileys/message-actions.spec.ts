import type { WAMessage } from 'baileys';
import { setup, tick } from './fixtures/connector-harness';
import * as f from './fixtures/library-events';
import { PIN_SECONDS, toMessageKey } from './message-actions';

const FORWARD_ID = '3c8f1f4e-7f0e-4a4e-9a59-1f2b3c4d5e6f';
const mine = { chat_id: '15550000002@c.us', unique_id: '3EB0MINE0001', from_me: true, sender_phone: '15550000001@c.us' };
const inGroup = { chat_id: f.GROUP, unique_id: '3EB0GRP00001', from_me: false, sender_phone: '15550000003@c.us' };

describe('Baileys message actions: the library content of each', () => {
  it('keys a message as the library does: a group message by another person names its participant', () => {
    expect(toMessageKey(mine)).toEqual({ remoteJid: '15550000002@s.whatsapp.net', id: '3EB0MINE0001', fromMe: true });
    expect(toMessageKey(inGroup)).toEqual({
      remoteJid: f.GROUP,
      id: '3EB0GRP00001',
      fromMe: false,
      participant: '15550000003@s.whatsapp.net',
    });
    expect(toMessageKey({ ...inGroup, from_me: true })).not.toHaveProperty('participant');
  });

  it("edit, delete, react and pin go to the message's chat with {edit}, {delete}, {react}, {pin}", async () => {
    const t = setup();
    await t.open();
    await t.connector.editMessage(mine, 'better');
    await t.connector.deleteMessage(mine);
    await t.connector.reactToMessage(inGroup, '👍');
    await t.connector.reactToMessage(inGroup, '');
    await t.connector.pinMessage(mine, true);
    await t.connector.pinMessage(mine, false);
    const key = toMessageKey(mine);
    expect(t.sock().sent.map((s) => [s.jid, s.content])).toEqual([
      ['15550000002@s.whatsapp.net', { text: 'better', edit: key }],
      ['15550000002@s.whatsapp.net', { delete: key }],
      [f.GROUP, { react: { text: '👍', key: toMessageKey(inGroup) } }],
      [f.GROUP, { react: { text: '', key: toMessageKey(inGroup) } }],
      ['15550000002@s.whatsapp.net', { pin: key, type: 1, time: PIN_SECONDS }],
      ['15550000002@s.whatsapp.net', { pin: key, type: 2 }],
    ]);
  });

  it('forwards the original when the session holds it, else its content marked forwarded; a repeat returns the first', async () => {
    const t = setup();
    await t.open();
    t.sock().emit('messages.upsert', { messages: [f.textFromAlice], type: 'notify' });
    await tick();
    const held = {
      chat_id: '15550000002@c.us',
      unique_id: f.textFromAlice.key.id as string,
      from_me: false,
      sender_phone: '15550000002@c.us',
    };
    const first = await t.connector.forwardMessage(held, f.GROUP, { text: 'ignored: the original goes' }, FORWARD_ID);
    expect(first).toMatchObject({ unique_id: t.connector.messageIdFor(FORWARD_ID), duplicate: false });
    expect(t.sock().sent[0]).toMatchObject({ jid: f.GROUP, options: { messageId: first.unique_id } });
    expect((t.sock().sent[0].content as { forward: WAMessage }).forward).toBe(f.textFromAlice);
    await tick();
    // The echo of the forward carries its id, as a send's does.
    expect(t.of('messages.upsert').pop()).toMatchObject({ messages: [{ unique_id: first.unique_id, sent_message_id: FORWARD_ID }] });
    expect(await t.connector.forwardMessage(held, f.GROUP, { text: 'x' }, FORWARD_ID)).toEqual({ ...first, duplicate: true });
    expect(t.sock().sent).toHaveLength(1);

    await t.connector.forwardMessage(
      { ...held, unique_id: '3EB0GONE0001' },
      f.GROUP,
      { text: 'old news' },
      '4c8f1f4e-7f0e-4a4e-9a59-1f2b3c4d5e6f',
    );
    expect(t.sock().sent[1].content).toEqual({
      text: 'old news',
      linkPreview: null,
      contextInfo: { isForwarded: true, forwardingScore: 1 },
    });
  });

  it('refuses every action while not connected', async () => {
    const t = setup();
    await t.connector.connect();
    await expect(t.connector.editMessage(mine, 'x')).rejects.toThrow('not connected');
    await expect(t.connector.deleteMessage(mine)).rejects.toThrow('not connected');
    await expect(t.connector.reactToMessage(mine, '👍')).rejects.toThrow('not connected');
    await expect(t.connector.pinMessage(mine, true)).rejects.toThrow('not connected');
    await expect(t.connector.forwardMessage(mine, f.GROUP, { text: 'x' }, FORWARD_ID)).rejects.toThrow('not connected');
  });
});
