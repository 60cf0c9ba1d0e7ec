import { IngestMessageSchema, type IngestMessage } from '@mapi/contracts';
import { WAMessageStatus } from 'baileys';
import {
  ackOf,
  hasMedia,
  toChatInfo,
  toContactId,
  toDeletions,
  toGroupMetadata,
  toIngestMessage,
  toJid,
  toMessageUpdates,
  toParticipantResults,
  toReceipts,
  type MapContext,
} from './baileys-mapping';
import * as f from './fixtures/library-events';
import { LidMap } from './lid-map';

const one = (m: IngestMessage | null): IngestMessage => {
  if (!m) throw new Error('expected a message');
  return m;
};
const ctx = (): MapContext => {
  const lids = new LidMap();
  lids.learn(f.BOB_LID, f.BOB_PN);
  return { me: f.ME, lids };
};

describe('Baileys mapping: messages', () => {
  it('maps a text message to a spec 2.1 message (valid for ingestion)', () => {
    const m = toIngestMessage(f.textFromAlice, ctx());
    expect(m).toEqual({
      chat_id: '15550000002@c.us',
      unique_id: '3EB0AAAA0001',
      from_me: false,
      sender_phone: '15550000002@c.us',
      sender_name: 'Alice',
      body: 'hello there',
      message_type: 'chat',
      timestamp: '2026-01-01T00:00:00.000Z',
      ack: 1,
      media: null,
      author: null,
      is_forwarded: null,
      quoted_message_id: null,
      mentioned_ids: [],
    });
    expect(IngestMessageSchema.safeParse(m).success).toBe(true);
  });

  it("gives the sender's push name for received messages only (a message from the phone has none)", () => {
    expect(one(toIngestMessage({ ...f.textFromAlice, pushName: undefined }, ctx())).sender_name).toBeNull();
    expect(one(toIngestMessage({ ...f.textFromAlice, key: { ...f.textFromAlice.key, fromMe: true } }, ctx())).sender_name).toBeNull();
  });

  it('maps a group reply: LID sender → phone number, quoted id, mentions, forwarded', () => {
    const m = one(toIngestMessage(f.extendedReplyInGroup, ctx()));
    expect(m).toMatchObject({
      chat_id: f.GROUP,
      sender_phone: '15550000003@c.us',
      author: '15550000003@c.us',
      body: 'see above @15550000002',
      message_type: 'chat',
      quoted_message_id: '3EB0AAAA0001',
      mentioned_ids: ['15550000002@c.us'],
      is_forwarded: true,
    });
  });

  it('keeps an unknown LID as <n>@lid rather than inventing a number', () => {
    const lids = new LidMap();
    expect(one(toIngestMessage(f.extendedReplyInGroup, { me: f.ME, lids })).sender_phone).toBe('99887766554433@lid');
  });

  it('maps image media metadata, caption as body, and the stored link as media.path', () => {
    const m = one(toIngestMessage(f.imageWithCaption, ctx(), { mediaPath: 'https://media.example/app/media/message-media/o/x.jpg' }));
    expect(m.message_type).toBe('image');
    expect(m.body).toBe('the view');
    expect(m.media).toEqual({
      dimensions: { ar: 0.75, height: 1280, width: 960 },
      filename: '3EB0AAAA0003.jpg',
      mimetype: 'image/jpeg',
      path: 'https://media.example/app/media/message-media/o/x.jpg',
      size: 48213,
      thumbnail: Buffer.from('thumb-bytes').toString('base64'),
    });
    expect(hasMedia(f.imageWithCaption)).toBe(true);
    expect(IngestMessageSchema.safeParse(m).success).toBe(true);
  });

  it('unwraps a document-with-caption: own message, sender = this phone, ack = status − 1', () => {
    const m = one(toIngestMessage(f.documentInViewOnceWrapper, ctx()));
    expect(m).toMatchObject({ from_me: true, sender_phone: '15550000001@c.us', message_type: 'document', body: 'your invoice', ack: 2 });
    expect(m.media).toMatchObject({
      filename: 'invoice.pdf',
      mimetype: 'application/pdf',
      size: 1024,
      path: '',
      dimensions: { ar: 0, height: 0, width: 0 },
    });
  });

  it('maps a voice note as ptt (mimetype without codec parameters) and a poll as poll_creation', () => {
    const voice = one(toIngestMessage(f.voiceNote, ctx()));
    expect(voice).toMatchObject({ message_type: 'ptt', body: null, ack: 1 });
    expect(voice.media?.mimetype).toBe('audio/ogg');
    const poll = one(toIngestMessage(f.pollFromMe, ctx(), { sentMessageId: '0b8f1f4e-7f0e-4a4e-9a59-1f2b3c4d5e6f' }));
    expect(poll).toMatchObject({
      message_type: 'poll_creation',
      body: 'Lunch?',
      ack: 0,
      author: '15550000001@c.us',
      sent_message_id: '0b8f1f4e-7f0e-4a4e-9a59-1f2b3c4d5e6f',
    });
  });

  it('skips what is not a message of its own, and marks undecryptable ones as ciphertext', () => {
    expect(toIngestMessage(f.revokeProtocolMessage, ctx())).toBeNull();
    expect(toIngestMessage(f.reaction, ctx())).toBeNull();
    expect(toIngestMessage({ ...f.textFromAlice, key: { ...f.textFromAlice.key, remoteJid: 'status@broadcast' } }, ctx())).toBeNull();
    expect(toIngestMessage({ key: { remoteJid: f.ALICE, id: 'x' } }, ctx())).toBeNull();
    expect(toIngestMessage(f.undecryptable, ctx())).toMatchObject({ message_type: 'ciphertext', body: null });
  });

  it('ack is the library status − 1 on the whole scale', () => {
    expect(
      [
        WAMessageStatus.ERROR,
        WAMessageStatus.PENDING,
        WAMessageStatus.SERVER_ACK,
        WAMessageStatus.DELIVERY_ACK,
        WAMessageStatus.READ,
        WAMessageStatus.PLAYED,
      ].map((s) => ackOf(s)),
    ).toEqual([-1, 0, 1, 2, 3, 4]);
    expect(ackOf(undefined, 0)).toBe(0);
  });
});

describe('Baileys mapping: receipts, edits, deletions', () => {
  it('group receipts: one receipt per step reached, per participant (LIDs mapped), times in ms', () => {
    expect(toReceipts(f.groupReceipts, ctx())).toEqual([
      { chat_id: f.GROUP, unique_id: '3EB0AAAA0006', from_me: true, participant: '15550000002@c.us', ack: 2, at: (1767225600 + 10) * 1000 },
      { chat_id: f.GROUP, unique_id: '3EB0AAAA0006', from_me: true, participant: '15550000003@c.us', ack: 2, at: (1767225600 + 11) * 1000 },
      { chat_id: f.GROUP, unique_id: '3EB0AAAA0006', from_me: true, participant: '15550000003@c.us', ack: 3, at: (1767225600 + 20) * 1000 },
    ]);
  });

  it('messages.update: status → ack, edit → new body, revoke → deleted', () => {
    const { receipts, changes } = toMessageUpdates(f.messageUpdates, ctx(), 42);
    expect(receipts).toEqual([{ chat_id: '15550000002@c.us', unique_id: '3EB0AAAA0004', from_me: true, ack: 3, at: 42 }]);
    expect(changes).toEqual([
      { chat_id: '15550000002@c.us', unique_id: '3EB0AAAA0001', from_me: false, edit: { body: 'hello there (edited)' } },
      { chat_id: '15550000002@c.us', unique_id: '3EB0AAAA0003', from_me: false, deleted: true },
    ]);
  });

  it('messages.delete keys → deletions', () => {
    expect(toDeletions([{ remoteJid: f.ALICE, id: 'A1', fromMe: true }, { remoteJid: f.ALICE }], ctx())).toEqual([
      { chat_id: '15550000002@c.us', unique_id: 'A1', from_me: true, deleted: true },
    ]);
  });
});

describe('Baileys mapping: groups, chats, participants, ids', () => {
  it('group metadata: admins, super admin, LIDs learned from participants that carry both', () => {
    const c = { me: f.ME, lids: new LidMap() };
    expect(toGroupMetadata(f.groupWithLids, c)).toEqual({
      chat_id: f.GROUP,
      subject: 'Team',
      participants: [
        { id: '15550000002@c.us', admin: true, super_admin: true },
        { id: '15550000003@c.us', admin: true, super_admin: false },
        { id: '55443322110099@lid', admin: false, super_admin: false },
      ],
    });
    expect(c.lids.pnOf(f.BOB_LID)).toBe(f.BOB_PN);
  });

  it('chats: users and groups, the status broadcast left out', () => {
    expect(f.historySet.chats.map((c) => toChatInfo(c, ctx()))).toEqual([
      { chat_id: '15550000002@c.us', chat_name: 'Alice', chat_type: 'user' },
      { chat_id: f.GROUP, chat_name: 'Team', chat_type: 'group' },
      null,
    ]);
  });

  it('participant outcomes from the library answer, in the request order', () => {
    const answer = [
      { status: '200', jid: '15550000002@s.whatsapp.net' },
      { status: '409', jid: BOB_PN_WITH_DEVICE },
      { status: '408', jid: '15550000009@s.whatsapp.net' },
    ];
    expect(toParticipantResults(['15550000003@c.us', '15550000002@c.us', '15550000009@c.us', '15550000010@c.us'], answer, ctx())).toEqual([
      { id: '15550000003@c.us', status: '409' },
      { id: '15550000002@c.us', status: '200' },
      { id: '15550000009@c.us', status: '403' },
      { id: '15550000010@c.us', status: '404' },
    ]);
  });

  it('ids: devices dropped, c.us ↔ s.whatsapp.net', () => {
    expect(toContactId('15550000002:12@s.whatsapp.net', ctx())).toBe('15550000002@c.us');
    expect(toContactId(undefined, ctx())).toBe('');
    expect(toJid('15550000002@c.us')).toBe('15550000002@s.whatsapp.net');
    expect(toJid(f.GROUP)).toBe(f.GROUP);
  });

  it('LidMap ignores pairs that are not one LID and one phone', () => {
    const lids = new LidMap();
    lids.learn(f.ALICE, f.BOB_PN);
    lids.learn(f.BOB_LID, '1@lid');
    lids.learn(undefined, f.BOB_LID);
    expect(lids.size).toBe(0);
  });
});

const BOB_PN_WITH_DEVICE = '15550000003:4@s.whatsapp.net';
