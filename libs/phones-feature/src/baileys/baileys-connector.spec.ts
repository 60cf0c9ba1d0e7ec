import { ALL_WA_PATCH_NAMES, DisconnectReason, proto, type WAMessage } from 'baileys';
import { setup, tick, until } from './fixtures/connector-harness';
import * as f from './fixtures/library-events';

const SENT_ID = '0b8f1f4e-7f0e-4a4e-9a59-1f2b3c4d5e6f';

describe('BaileysConnector: connection', () => {
  it('hands on each QR the library rotates, then CONNECTED with the number; saves creds on creds.update', async () => {
    const t = setup({ registered: false });
    await t.connector.connect();
    t.sock().emit('connection.update', { qr: 'qr-1', connection: 'connecting' });
    t.sock().emit('connection.update', { qr: 'qr-2' });
    t.sock().emit('creds.update', { registered: true });
    t.sock().user = { id: '15550000001:7@s.whatsapp.net' };
    t.sock().emit('connection.update', { connection: 'open' });
    await tick();
    expect(t.of('connection.update')).toEqual([
      { state: 'QR', qr: 'qr-1' },
      { state: 'QR', qr: 'qr-2' },
      { state: 'CONNECTED', number: '15550000001' },
    ]);
    expect(t.auth.saves()).toBe(1);
    expect(await t.connector.isConnected()).toBe(true);
  });

  it('reconnects with backoff on a transient close (DISCONNECTED, then UNREACHABLE after repeated failures)', async () => {
    const t = setup({ deps: { unreachableAfter: 2 } });
    await t.open();
    for (let i = 0; i < 3; i++) {
      t.sock().close(DisconnectReason.connectionLost);
      await until(() => t.sockets.length === i + 2);
    }
    expect(t.sockets).toHaveLength(4);
    expect(t.of('connection.update').map((u) => u.state)).toEqual(['CONNECTED', 'DISCONNECTED', 'DISCONNECTED', 'UNREACHABLE']);
    expect(await t.connector.isConnected()).toBe(false);
    t.sock().emit('connection.update', { connection: 'open' });
    await tick();
    expect(await t.connector.isConnected()).toBe(true);
  });

  it('an expired QR (unpaired) opens again for fresh QRs without reporting a disconnection', async () => {
    const t = setup({ registered: false });
    await t.connector.connect();
    t.sock().close(DisconnectReason.timedOut);
    await until(() => t.sockets.length === 2);
    expect(t.sockets).toHaveLength(2);
    expect(t.of('connection.update')).toEqual([]);
  });

  it('restartRequired (after pairing) opens a new socket at once', async () => {
    const t = setup();
    await t.connector.connect();
    t.sock().close(DisconnectReason.restartRequired);
    await until(() => t.sockets.length === 2);
    expect(t.sockets).toHaveLength(2);
    expect(t.of('connection.update')).toEqual([]);
  });

  it('a logout from the phone forgets the creds, reports LOGGED_OUT and stops', async () => {
    const t = setup();
    await t.open();
    t.sock().close(DisconnectReason.loggedOut);
    await tick();
    await tick();
    expect(t.auth.cleared).toEqual(['phone-test00000001']);
    expect(t.of('connection.update').pop()).toEqual({ state: 'LOGGED_OUT', qr: null });
    expect(t.sockets).toHaveLength(1);
  });

  it('a ban (403) is surfaced as the BANNED state and stops; a replaced session stops as DISCONNECTED', async () => {
    const t = setup();
    await t.open();
    t.sock().close(DisconnectReason.forbidden);
    await tick();
    await tick();
    expect(t.of('connection.update').pop()).toEqual({ state: 'BANNED', qr: null });
    expect(t.sockets).toHaveLength(1);
    expect(t.auth.cleared).toEqual([]);

    const r = setup();
    await r.open();
    r.sock().close(DisconnectReason.connectionReplaced);
    await tick();
    await tick();
    expect(r.of('connection.update').pop()).toEqual({ state: 'DISCONNECTED' });
    expect(r.sockets).toHaveLength(1);
  });

  it('disconnect() ends the socket and ignores its late events; logout() logs out on the network and forgets creds', async () => {
    const t = setup();
    await t.open();
    const first = t.sock();
    await t.connector.disconnect();
    expect(first.ended).toBe(true);
    first.emit('messages.upsert', { messages: [f.textFromAlice], type: 'notify' });
    first.close(DisconnectReason.connectionLost);
    await tick();
    expect(t.of('messages.upsert')).toEqual([]);
    expect(t.sockets).toHaveLength(1);

    const l = setup();
    await l.open();
    await l.connector.logout();
    expect(l.sock().loggedOut).toBe(true);
    expect(l.auth.cleared).toEqual(['phone-test00000001']);
    expect(l.of('connection.update').pop()).toEqual({ state: 'LOGGED_OUT', qr: null });
  });

  it('pairing by code: asks the library with the digits; refused once paired', async () => {
    const t = setup({ registered: false });
    await t.connector.connect();
    expect(await t.connector.requestPairingCode('+1 555-000-0001')).toBe('CODE-0001');
    const p = setup();
    await p.open();
    await expect(p.connector.requestPairingCode('15550000001')).rejects.toThrow('already paired');
  });
});

describe('BaileysConnector: events', () => {
  it('maps live messages, stores received media, and skips protocol messages', async () => {
    const stored: string[] = [];
    const t = setup({
      deps: {
        storeMedia: async (msg, chatId) => (
          stored.push(`${chatId}/${msg.key.id}`),
          { outcome: 'stored', path: 'https://m.example/app/media/message-media/x' }
        ),
      },
    });
    await t.open();
    t.sock().emit('messages.upsert', { messages: [f.textFromAlice, f.revokeProtocolMessage, f.imageWithCaption], type: 'notify' });
    await tick();
    const [upsert] = t.of('messages.upsert');
    expect(upsert.type).toBe('notify');
    expect(upsert.messages.map((m) => m.unique_id)).toEqual(['3EB0AAAA0001', '3EB0AAAA0003']);
    expect(upsert.messages[1].media?.path).toBe('https://m.example/app/media/message-media/x');
    expect(stored).toEqual(['15550000002@c.us/3EB0AAAA0003']);
  });

  it('hands events on one at a time, in order (a slow handler holds the next)', async () => {
    const t = setup();
    const order: string[] = [];
    t.connector.on('messages.upsert', async ({ messages }) => {
      await new Promise((r) => setTimeout(r, 20));
      order.push(`upsert:${messages[0].unique_id}`);
    });
    t.connector.on('message-receipt.update', async (r) => void order.push(`receipt:${r[0].ack}`));
    await t.open();
    t.sock().emit('messages.upsert', { messages: [f.textFromAlice], type: 'notify' });
    t.sock().emit('message-receipt.update', f.groupReceipts);
    await new Promise((r) => setTimeout(r, 40));
    expect(order).toEqual(['upsert:3EB0AAAA0001', 'receipt:2']);
  });

  it('receipts, status updates, edits and deletions', async () => {
    const t = setup();
    await t.open();
    t.sock().emit('message-receipt.update', f.groupReceipts);
    t.sock().emit('messages.update', f.messageUpdates);
    t.sock().emit('messages.delete', { keys: [{ remoteJid: f.ALICE, id: 'GONE', fromMe: false }] });
    await tick();
    expect(
      t
        .of('message-receipt.update')
        .flat()
        .map((r) => r.ack),
    ).toEqual([2, 2, 3, 3]);
    expect(t.of('messages.update').flat()).toEqual([
      expect.objectContaining({ unique_id: '3EB0AAAA0001', edit: { body: 'hello there (edited)' } }),
      expect.objectContaining({ unique_id: '3EB0AAAA0003', deleted: true }),
      expect.objectContaining({ unique_id: 'GONE', deleted: true }),
    ]);
  });

  it('history sync → chats and backfill (append); LIDs learned from its contacts', async () => {
    const t = setup();
    await t.open();
    t.sock().emit('messaging-history.set', f.historySet);
    await tick();
    expect(t.of('chats.upsert')[0].map((c) => c.chat_id)).toEqual(['15550000002@c.us', f.GROUP]);
    const [backfill] = t.of('messages.upsert');
    expect(backfill.type).toBe('append');
    expect(backfill.messages.map((m) => m.sender_phone)).toEqual(['15550000002@c.us', '15550000003@c.us']);
  });

  it('groups and participant changes → groups.upsert (fetched from the library)', async () => {
    const t = setup();
    await t.open();
    t.sock().groups = { [f.GROUP]: f.groupWithLids };
    t.sock().emit('group-participants.update', { id: f.GROUP, author: f.ALICE, participants: [f.BOB_PN], action: 'promote' });
    await tick();
    expect(t.of('groups.upsert')[0][0].participants).toHaveLength(3);
    expect(t.of('chats.upsert')[0]).toEqual([{ chat_id: f.GROUP, chat_name: 'Team', chat_type: 'group' }]);
  });
});

describe('BaileysConnector: actions', () => {
  it('sends text with an id derived from the send; the echo is live with sent_message_id; a repeat is a duplicate', async () => {
    const t = setup();
    await t.open();
    const first = await t.connector.sendMessage('15550000002@c.us', { text: 'hi' }, SENT_ID);
    expect(first).toEqual({ unique_id: t.connector.messageIdFor(SENT_ID), timestamp: '2026-01-01T00:01:40.000Z', duplicate: false });
    expect(first.unique_id).toMatch(/^3EB0[0-9A-F]{36}$/);
    expect(t.sock().sent[0]).toMatchObject({
      jid: '15550000002@s.whatsapp.net',
      content: { text: 'hi', linkPreview: null },
      options: { messageId: first.unique_id },
    });
    await tick();
    const [echo] = t.of('messages.upsert');
    expect(echo).toMatchObject({
      type: 'notify',
      messages: [{ unique_id: first.unique_id, from_me: true, sent_message_id: SENT_ID, ack: 0 }],
    });
    const again = await t.connector.sendMessage('15550000002@c.us', { text: 'hi' }, SENT_ID);
    expect(again).toEqual({ ...first, duplicate: true });
    expect(t.sock().sent).toHaveLength(1);
  });

  it('sends media, a reply (quoting the recent message) and a poll', async () => {
    const t = setup();
    await t.open();
    t.sock().emit('messages.upsert', { messages: [f.textFromAlice], type: 'notify' });
    await tick();
    await t.connector.sendMessage(
      '15550000002@c.us',
      { text: 'look', media: { filename: 'a.png', mimetype: 'image/png', filedata: 'ZmlsZQ==' } },
      SENT_ID,
    );
    await t.connector.sendMessage(
      '15550000002@c.us',
      { text: 'yes', reply_to: 'false_15550000002@c.us_3EB0AAAA0001' },
      '1b8f1f4e-7f0e-4a4e-9a59-1f2b3c4d5e6f',
    );
    await t.connector.sendMessage(
      f.GROUP,
      { poll: { name: 'Lunch?', options: ['yes', 'no'], allow_multiple: true } },
      '2b8f1f4e-7f0e-4a4e-9a59-1f2b3c4d5e6f',
    );
    const [media, reply, poll] = t.sock().sent;
    expect(media.content).toEqual({ image: Buffer.from('file'), caption: 'look', mimetype: 'image/png' });
    expect((reply.options as { quoted: WAMessage }).quoted).toBe(f.textFromAlice);
    expect(poll).toMatchObject({ jid: f.GROUP, content: { poll: { name: 'Lunch?', values: ['yes', 'no'], selectableCount: 0 } } });
  });

  it('refuses actions while not connected', async () => {
    const t = setup();
    await t.connector.connect();
    await expect(t.connector.sendMessage('1@c.us', { text: 'x' }, SENT_ID)).rejects.toThrow('not connected');
    await expect(t.connector.groupParticipantsUpdate(f.GROUP, ['1@c.us'], 'add')).rejects.toThrow('not connected');
    await expect(t.connector.resyncAppState()).rejects.toThrow('not connected');
  });

  it('participant actions: per-participant outcomes from the answer, then the group is handed on', async () => {
    const t = setup();
    await t.open();
    t.sock().groups = { [f.GROUP]: f.groupWithLids };
    t.sock().participantsAnswer = [
      { status: '200', jid: f.ALICE, content: undefined as never },
      { status: '403', jid: f.BOB_PN, content: undefined as never },
    ];
    const results = await t.connector.groupParticipantsUpdate(f.GROUP, ['15550000002@c.us', '15550000003@c.us', '15550000004@c.us'], 'add');
    expect(results).toEqual([
      { id: '15550000002@c.us', status: '200' },
      { id: '15550000003@c.us', status: '403' },
      { id: '15550000004@c.us', status: '404' },
    ]);
    await tick();
    expect(t.of('groups.upsert')).toHaveLength(1);
  });

  it('resync: the library app-state resync over every collection, then groups and known chats', async () => {
    const t = setup();
    await t.open();
    t.sock().groups = { [f.GROUP]: f.groupWithLids };
    t.sock().emit('chats.upsert', [{ id: f.ALICE, name: 'Alice' }]);
    await tick();
    const { chats, groups } = await t.connector.resyncAppState();
    expect(t.sock().resyncs).toEqual([ALL_WA_PATCH_NAMES]);
    expect(groups.map((g) => g.chat_id)).toEqual([f.GROUP]);
    expect(chats.map((c) => c.chat_id).sort()).toEqual(['120363000000000001@g.us', '15550000002@c.us']);
  });

  it('history fetch: asks for messages older than the oldest seen, returns the ON_DEMAND answer', async () => {
    const t = setup();
    await t.open();
    t.sock().emit('messages.upsert', { messages: [f.textFromAlice], type: 'notify' });
    await tick();
    const older: WAMessage = { ...f.textFromAlice, key: { ...f.textFromAlice.key, id: 'OLDER1' }, messageTimestamp: 1767225000 };
    const pending = t.connector.fetchMessageHistory('15550000002@c.us', 60);
    await tick();
    expect(t.sock().historyRequests[0]).toMatchObject({ count: 50, key: { id: '3EB0AAAA0001' }, ms: 1767225600000 });
    t.sock().emit('messaging-history.set', {
      chats: [],
      contacts: [],
      messages: [older],
      syncType: proto.HistorySync.HistorySyncType.ON_DEMAND,
      peerDataRequestSessionId: 'req-1',
    });
    await tick();
    expect(t.sock().historyRequests[1]).toMatchObject({ count: 50, key: { id: 'OLDER1' } });
    // no answer to the second page: the fetch ends at the timeout with what it has
    expect((await pending).map((m) => m.unique_id)).toEqual(['OLDER1']);
    expect(await t.connector.fetchMessageHistory('999@c.us', 10)).toEqual([]);
  });
});
