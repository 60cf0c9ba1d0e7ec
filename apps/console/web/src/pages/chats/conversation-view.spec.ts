import type { Message, Note, Reaction } from '../../api/types';
import {
  ackMark,
  excerpt,
  fileSize,
  forwardTargets,
  imageBox,
  indexMessages,
  isEdited,
  isGroupChat,
  mediaKind,
  mediaPaths,
  noteAuthor,
  missingQuotes,
  quotedCandidates,
  sendMediaType,
  pinnedIds,
  quotedOf,
  reactionsByMessage,
  senderOf,
  thumbnailSrc,
  timeline,
  wantsOlder,
  withMessage,
  withPage,
  withReaction,
} from './conversation-view';

const GROUP = '120363000000000001@g.us';
const msg = (id: string, at: string, extra: Partial<Message> = {}): Message => ({
  message_id: `false_${GROUP}_${id}`,
  unique_id: id,
  chat_id: GROUP,
  org_phone: '447700900001@c.us',
  body: `text ${id}`,
  from_me: false,
  timestamp: `2026-11-29T10:${at}:00+00:00`,
  ...extra,
});
const note = (id: string, at: string | null): Note => ({
  message_id: id,
  chat_id: GROUP,
  body: `note ${id}`,
  performed_by: 'a@example.com',
  timestamp: at && `2026-11-29T10:${at}:00+00:00`,
});
const reaction = (messageId: string, sender: string, emoji: string, at: string): Reaction => ({
  reaction_id: `${messageId}-${sender}`,
  message_id: messageId,
  chat_id: GROUP,
  org_phone: '447700900001@c.us',
  sender_id: `${sender}@c.us`,
  reaction: emoji,
  timestamp: `2026-11-29T10:${at}:00+00:00`,
});

describe('ackMark', () => {
  it('reads the spec 2.1 ack as sent / delivered / read marks', () => {
    expect(ackMark('1')).toMatchObject({ glyph: '✓', label: 'Sent', tone: 'sent' });
    expect(ackMark('2')).toMatchObject({ glyph: '✓✓', label: 'Delivered' });
    expect(ackMark('3')).toMatchObject({ glyph: '✓✓', label: 'Read', tone: 'read' });
    expect(ackMark('4')).toMatchObject({ label: 'Played', tone: 'read' });
    expect(ackMark('0')?.label).toBe('Pending');
    expect(ackMark('-1')).toMatchObject({ label: 'Not sent', tone: 'failed' });
    expect(ackMark(null)).toBeNull();
    expect(ackMark('7')).toBeNull();
  });
});

describe('senderOf', () => {
  const members = { '447700900123@c.us': { contact_id: '447700900123@c.us', contact_name: 'Ana (API)', pushname: 'ana' } };
  it("names a group message's author from the chat's members, with the number", () => {
    expect(senderOf(msg('A', '00', { author: '447700900123@c.us', sender_phone: '447700900123@c.us' }), members)).toEqual({
      name: 'Ana (API)',
      number: '447700900123',
    });
  });
  it("falls back to the message's sender_name, then to the number alone; none for one's own", () => {
    expect(senderOf(msg('B', '00', { sender_phone: '447700900999@c.us', sender_name: 'Bo' }), members)).toEqual({
      name: 'Bo',
      number: '447700900999',
    });
    expect(senderOf(msg('C', '00', { sender_phone: '447700900998@c.us' }), null)).toEqual({ name: null, number: '447700900998' });
    expect(senderOf(msg('D', '00', { from_me: true, sender_phone: '1@c.us' }), members)).toBeNull();
  });
  it('tells groups by chat_type or the @g.us id', () => {
    expect(isGroupChat(GROUP)).toBe(true);
    expect(isGroupChat('447700900123@c.us', { chat_type: 'group' })).toBe(true);
    expect(isGroupChat('447700900123@c.us', { chat_type: 'user' })).toBe(false);
  });
});

describe('quotedOf', () => {
  const quoted = msg('Q1', '00', { body: 'the original' });
  const index = indexMessages([quoted]);
  it('finds the quoted message by its network id or its message_id', () => {
    expect(quotedOf(msg('R1', '01', { quoted_message_id: 'Q1' }), index)).toEqual({ found: quoted });
    expect(quotedOf(msg('R2', '01', { quoted_message_id: quoted.message_id }), index)).toEqual({ found: quoted });
    expect(quotedOf(msg('R3', '01', { quoted_message_id: `true_${GROUP}_Q1` }), index)).toEqual({ found: quoted });
  });
  it('says when the quoted message is not loaded, and nothing for a message that quotes none', () => {
    expect(quotedOf(msg('R4', '01', { quoted_message_id: 'GONE' }), index)).toEqual({ missing: 'GONE' });
    expect(quotedOf(msg('R5', '01', { has_quoted_msg: true }), index)).toEqual({ missing: '' });
    expect(quotedOf(msg('R6', '01'), index)).toBeNull();
  });
});

describe('quoted messages not loaded', () => {
  it('lists the quoted ids the loaded messages lack, once each', () => {
    const index = indexMessages([msg('Q1', '00')]);
    const list = [
      msg('R1', '01', { quoted_message_id: 'Q1' }),
      msg('R2', '02', { quoted_message_id: 'OLD' }),
      msg('R3', '03', { quoted_message_id: 'OLD' }),
      msg('R4', '04', { has_quoted_msg: true }),
    ];
    expect(missingQuotes(list, index)).toEqual(['OLD']);
  });
  it('asks for a message_id as is, and a bare network id as received then sent in this chat', () => {
    expect(quotedCandidates(`true_${GROUP}_ABC`, GROUP)).toEqual([`true_${GROUP}_ABC`]);
    expect(quotedCandidates('ABC', GROUP)).toEqual([`false_${GROUP}_ABC`, `true_${GROUP}_ABC`]);
  });
});

describe('excerpt, edited, media', () => {
  it('shortens text, names deleted messages and files', () => {
    expect(excerpt(msg('A', '00', { body: 'x'.repeat(200) }), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(excerpt(msg('A', '00', { is_deleted: true }))).toBe('Deleted message');
    expect(excerpt(msg('A', '00', { body: null, media: { mimetype: 'application/pdf', filename: 'a.pdf', path: '/p' } }))).toBe(
      '(document: a.pdf)',
    );
  });
  it('marks a message edited when it has a previous body and is not deleted', () => {
    expect(isEdited(msg('A', '00', { prev_body: 'before' }))).toBe(true);
    expect(isEdited(msg('A', '00', { prev_body: null }))).toBe(false);
    expect(isEdited(msg('A', '00', { prev_body: 'x', is_deleted: true }))).toBe(false);
  });
  it('tells the kind of file by its mimetype, else the message type', () => {
    expect(mediaKind({ media: { mimetype: 'image/png' } })).toBe('image');
    expect(mediaKind({ media: { mimetype: 'audio/ogg; codecs=opus' } })).toBe('audio');
    expect(mediaKind({ media: { mimetype: 'video/mp4' } })).toBe('video');
    expect(mediaKind({ media: { mimetype: 'application/pdf' } })).toBe('document');
    expect(mediaKind({ message_type: 'ptt' })).toBe('audio');
    expect(mediaKind({ message_type: 'chat' })).toBeNull();
  });
  it('sends a file as image, video or audio by its mimetype, anything else as a document', () => {
    expect(['image/jpeg', 'video/mp4', 'audio/mpeg', 'application/pdf', ''].map(sendMediaType)).toEqual([
      'image',
      'video',
      'audio',
      'document',
      'document',
    ]);
  });
  it('lists the stored paths to link, once each, not those of deleted messages', () => {
    const withFile = (id: string, path: string, extra: Partial<Message> = {}) => msg(id, '00', { media: { path }, ...extra });
    expect(mediaPaths([withFile('A', '/a'), withFile('B', '/a'), withFile('C', '/c', { is_deleted: true }), msg('D', '00')])).toEqual([
      '/a',
    ]);
  });
  it('keeps an image its place: its size scaled to at most 256 px a side', () => {
    expect(imageBox({ width: 1024, height: 512 })).toEqual({ width: 256, height: 128 });
    expect(imageBox({ width: 96, height: 96 })).toEqual({ width: 96, height: 96 });
    expect(imageBox({ width: 0, height: 5 })).toBeNull();
    expect(imageBox(null)).toBeNull();
  });
  it('makes thumbnails image sources and sizes readable', () => {
    expect(thumbnailSrc('data:image/png;base64,AAA=')).toBe('data:image/png;base64,AAA=');
    expect(thumbnailSrc('AAA=')).toBe('data:image/jpeg;base64,AAA=');
    expect(thumbnailSrc('javascript:alert(1)')).toBeNull();
    expect(thumbnailSrc('')).toBeNull();
    expect([fileSize(512), fileSize(2048), fileSize(300 * 1024), fileSize(3 * 1024 * 1024), fileSize(null)]).toEqual([
      '512 B',
      '2.0 KB',
      '300 KB',
      '3.0 MB',
      '',
    ]);
  });
});

describe('reactions and pins', () => {
  it('counts each emoji per message with who reacted, in the order first made; taken-back ones are left out', () => {
    const list = [
      reaction('M1', '111', '👍', '02'),
      reaction('M1', '222', '❤️', '03'),
      reaction('M1', '333', '👍', '04'),
      { ...reaction('M2', '111', '', '05') },
    ];
    const by = reactionsByMessage(list);
    expect(by.get('M1')).toEqual([
      { emoji: '👍', count: 2, senders: ['111', '333'] },
      { emoji: '❤️', count: 1, senders: ['222'] },
    ]);
    expect(by.has('M2')).toBe(false);
  });
  it("replaces a sender's reaction to a message, and removes it when taken back", () => {
    const one = [reaction('M1', '111', '👍', '02'), reaction('M1', '222', '❤️', '03')];
    expect(withReaction(one, reaction('M1', '111', '😂', '04')).map((r) => r.reaction)).toEqual(['❤️', '😂']);
    expect(withReaction(one, reaction('M1', '111', '', '04')).map((r) => r.reaction)).toEqual(['❤️']);
  });
  it('keeps pins that have not expired', () => {
    const now = 1_000_000;
    expect([
      ...pinnedIds(
        [{ message_id: 'a', expires_at: now + 1 }, { message_id: 'b', expires_at: now - 1 }, { message_id: 'c' }, { nope: 1 }],
        now,
      ),
    ]).toEqual(['a', 'c']);
    expect(pinnedIds(null, now).size).toBe(0);
  });
});

describe('pages and the timeline', () => {
  const [a, b, c] = [msg('A', '01'), msg('B', '02'), msg('C', '03')];
  it('merges an older page (newest first, as the API answers) oldest first, one row per message (the row held wins)', () => {
    const held = [b, { ...c, ack: '3' }];
    const out = withPage(held, [{ ...c, ack: '1' }, a]);
    expect(out.map((m) => [m.unique_id, m.ack ?? null])).toEqual([
      ['A', null],
      ['B', null],
      ['C', '3'],
    ]);
  });
  it('keeps the order the API gives to messages of the same second', () => {
    const [x, y, z] = [msg('Z9', '05'), msg('A1', '05'), msg('M5', '05')];
    const first = withPage([], [z, y, x]);
    expect(first.map((m) => m.unique_id)).toEqual(['Z9', 'A1', 'M5']);
    expect(withPage(first, [msg('Q', '05'), msg('P', '04')]).map((m) => m.unique_id)).toEqual(['P', 'Q', 'Z9', 'A1', 'M5']);
    expect(withMessage(first, msg('B0', '05')).map((m) => m.unique_id)).toEqual(['Z9', 'A1', 'M5', 'B0']);
  });
  it('a fresh read of the newest page wins over the rows held', () => {
    expect(withPage([a, { ...c, ack: '1' }], [{ ...c, ack: '3' }], true).map((m) => [m.unique_id, m.ack ?? null])).toEqual([
      ['A', null],
      ['C', '3'],
    ]);
  });
  it('applies a message event in place or in time order', () => {
    expect(withMessage([a, c], b).map((m) => m.unique_id)).toEqual(['A', 'B', 'C']);
    expect(withMessage([a, c], { ...a, body: 'edited' })[0].body).toBe('edited');
  });
  it('puts notes between the messages by time; notes older than the loaded messages wait while older ones remain', () => {
    const notes = [note('n0', '00'), note('n2', '02'), note('nx', null)];
    const ids = (complete: boolean) =>
      timeline([a, b, c], notes, complete).map((i) => (i.kind === 'note' ? i.note.message_id : i.message.unique_id));
    expect(ids(false)).toEqual(['A', 'B', 'n2', 'C', 'nx']);
    expect(ids(true)).toEqual(['n0', 'A', 'B', 'n2', 'C', 'nx']);
    expect(timeline([], notes, true).map((i) => i.kind)).toEqual(['note', 'note', 'note']);
  });
  it('asks for older messages near the top only when more exist and none are being read', () => {
    expect(wantsOlder(10, true, false)).toBe(true);
    expect(wantsOlder(10, false, false)).toBe(false);
    expect(wantsOlder(10, true, true)).toBe(false);
    expect(wantsOlder(500, true, false)).toBe(false);
  });
});

describe('forwardTargets', () => {
  it('reads numbers (with +, spaces or dashes) and chat ids, comma-separated, once each', () => {
    expect(forwardTargets(' +44 7700-900123, 120363000000000001@g.us,, 447700900123 ,x@c.us')).toEqual([
      '447700900123',
      '120363000000000001@g.us',
      'x@c.us',
    ]);
    expect(forwardTargets('  ')).toEqual([]);
  });
});

describe('noteAuthor', () => {
  it('names a note’s author only when it is a person (an email), not a token’s or session’s id', () => {
    expect(noteAuthor('ana@example.com')).toBe('ana@example.com');
    expect(noteAuthor('57cc6ac9-3a1a-447d-9808-673898c73755')).toBeNull();
    expect(noteAuthor(null)).toBeNull();
  });
});
