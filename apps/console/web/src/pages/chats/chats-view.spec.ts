import type { Chat, Label, Message } from '../../api/types';
import {
  NO_FILTERS,
  assigneeShort,
  breachMarks,
  breachTitle,
  chatHeading,
  chatLabels,
  chatsPagePath,
  chatsRequest,
  chipBackground,
  chipTextColor,
  filtering,
  filtersFromQuery,
  filtersToQuery,
  lastActivity,
  openTicketChats,
  shortTime,
  unreadOf,
  withChatRead,
  withNewMessage,
  withoutBreach,
} from './chats-view';

const P1 = '447700900001@c.us';
const P2 = '447700900002@c.us';
const chat = (id: string, extra: Partial<Chat> = {}): Chat => ({
  chat_id: `${id}@c.us`,
  org_phone: P1,
  latest_message_timestamp: 1_000,
  unread_count: { [P1]: 0 },
  message_unread_count: 0,
  ...extra,
});
const message = (chatId: string, extra: Partial<Message> = {}): Message => ({
  message_id: `false_${chatId}_X`,
  chat_id: chatId,
  org_phone: P1,
  body: 'new',
  from_me: false,
  timestamp: new Date(5_000).toISOString(),
  ...extra,
});

describe('console chats page logic', () => {
  describe('filters in the address', () => {
    it('reads every filter, and ignores unknown or malformed values', () => {
      const q = new URLSearchParams(
        'assigned=mine&label=l-1&on_phone=%2B44%207700&unread=1&flagged=1&ticket=open&q=%20refund%20&phone=4477',
      );
      expect(filtersFromQuery(q)).toEqual({
        assigned: 'mine',
        label: 'l-1',
        phone: '447700',
        unread: true,
        flagged: true,
        ticket: true,
        q: 'refund',
      });
      expect(filtersFromQuery(new URLSearchParams('assigned=someone&unread=yes&ticket=1&q=' + 'x'.repeat(150)))).toEqual({
        ...NO_FILTERS,
        q: 'x'.repeat(100),
      });
      expect(filtersFromQuery(new URLSearchParams(''))).toEqual(NO_FILTERS);
    });

    it('writes back what it reads, set filters only', () => {
      const f = { ...NO_FILTERS, assigned: 'none' as const, flagged: true, q: 'a b' };
      expect(filtersToQuery(f)).toEqual([
        ['assigned', 'none'],
        ['flagged', '1'],
        ['q', 'a b'],
      ]);
      expect(filtersFromQuery(new URLSearchParams(filtersToQuery(f)))).toEqual(f);
      expect(filtering(NO_FILTERS)).toBe(false);
      expect(filtering({ ...NO_FILTERS, ticket: true })).toBe(true);
    });

    it('keeps the filters in the list and chat addresses; the open chat keeps its phone', () => {
      const f = { ...NO_FILTERS, unread: true, q: 'refund' };
      expect(chatsPagePath(NO_FILTERS)).toBe('/chats');
      expect(chatsPagePath(f)).toBe('/chats?unread=1&q=refund');
      expect(chatsPagePath(f, { chat_id: '123@c.us', org_phone: P2 })).toBe('/chats/123%40c.us?phone=447700900002&unread=1&q=refund');
    });
  });

  describe('the API call', () => {
    it('maps the filters to GET /chats parameters and x-phone', () => {
      expect(chatsRequest(NO_FILTERS, 'amy@example.com', 100)).toEqual({ path: '/chats?limit=100', phone: null });
      const all = { assigned: 'mine' as const, label: 'l-1', phone: '447700900002', unread: true, flagged: true, ticket: true, q: 'a&b' };
      expect(chatsRequest(all, 'amy@example.com', 50)).toEqual({
        path: '/chats?limit=50&assigned_to=amy%40example.com&label=l-1&unread=true&flagged=true&open_ticket=true&search=a%26b',
        phone: '447700900002',
      });
      expect(chatsRequest({ ...NO_FILTERS, assigned: 'none' }, null, 10).path).toBe('/chats?limit=10&assigned_to=none');
      // no email known yet: "mine" cannot be asked, rather than asking for every chat as mine
      expect(chatsRequest({ ...NO_FILTERS, assigned: 'mine' }, null, 10).path).toBe('/chats?limit=10');
      // the next page: the cursor the previous one answered
      expect(chatsRequest({ ...NO_FILTERS, unread: true }, null, 100, 'WyIy').path).toBe('/chats?limit=100&cursor=WyIy&unread=true');
    });

    it("marks the chats with an open or in-progress ticket (the filter is the API's open_ticket)", () => {
      const open = openTicketChats([
        { chat_id: 'a@c.us', status: 'open' },
        { chat_id: 'b@c.us', status: 'inprogress' },
        { chat_id: 'c@c.us', status: 'closed' },
        { chat_id: 'd@c.us', status: null },
      ]);
      expect([...open].sort()).toEqual(['a@c.us', 'b@c.us']);
    });
  });

  describe('a row', () => {
    it('shows the last message time short: time today, yesterday, weekday, day and month, with the year when not this one', () => {
      const now = new Date(2026, 10, 12, 16, 30); // Thu 12 Nov 2026, local time
      expect(shortTime(new Date(2026, 10, 12, 14, 2).getTime(), now)).toBe('14:02');
      expect(shortTime(new Date(2026, 10, 12, 0, 0).toISOString(), now)).toBe('00:00');
      expect(shortTime(new Date(2026, 10, 11, 23, 59).getTime(), now)).toBe('Yesterday');
      expect(shortTime(new Date(2026, 10, 9, 8, 0).getTime(), now)).toBe('Mon');
      expect(shortTime(new Date(2026, 10, 5, 8, 0).getTime(), now)).toBe('5 Nov');
      expect(shortTime(new Date(2025, 10, 12, 8, 0).getTime(), now)).toBe('12 Nov 2025');
      expect(shortTime(new Date(2026, 10, 12, 18, 0).getTime(), now)).toBe('18:00'); // a clock slightly ahead
      expect([null, undefined, '', 'not a date'].map((v) => shortTime(v, now))).toEqual(['', '', '', '']);
    });

    it('names a one-to-one chat by its name with the number secondary, by its number alone when it has no name, a group by its subject', () => {
      expect(chatHeading(chat('383275539109', { chat_name: 'Carla Ruiz' }))).toEqual({ title: 'Carla Ruiz', number: '+383275539109' });
      expect(chatHeading(chat('383275539109', { chat_name: null, name: null, contact_name: 'Carla' }))).toEqual({
        title: 'Carla',
        number: '+383275539109',
      });
      for (const unnamed of [{ chat_name: null }, { chat_name: '  ' }, { chat_name: '+383 27 553 9109' }])
        expect(chatHeading(chat('383275539109', unnamed))).toEqual({ title: '+383275539109', number: null });
      expect(chatHeading({ chat_id: '120363000000000001@g.us', chat_name: 'Team' })).toEqual({ title: 'Team', number: null });
      expect(chatHeading({ chat_id: '120363000000000001@g.us', chat_name: null })).toEqual({ title: '120363000000000001', number: null });
      expect(chatHeading({ chat_id: '447700900123@c.us', chat_name: 'Ops', chat_type: 'group' })).toEqual({ title: 'Ops', number: null });
    });

    it('reads the last activity from the view or the latest message', () => {
      expect(lastActivity(chat('a', { latest_message_timestamp: 42 }))).toBe(42);
      expect(
        lastActivity(
          chat('a', { latest_message_timestamp: null, latest_message: message('a@c.us', { timestamp: '1970-01-01T00:00:01.000Z' }) }),
        ),
      ).toBe(1000);
      expect(lastActivity(chat('a', { latest_message_timestamp: null, latest_message: null }))).toBeNull();
    });

    it('counts unread as the largest of the phones', () => {
      expect(unreadOf(chat('a', { unread_count: { [P1]: 2, [P2]: 5 } }))).toBe(5);
      expect(unreadOf(chat('a', { unread_count: {}, message_unread_count: 3 }))).toBe(3);
      expect(unreadOf(chat('a', { unread_count: undefined, message_unread_count: null }))).toBe(0);
    });

    it('shows the assignee short and the known labels by name, in readable colours', () => {
      expect(assigneeShort('ana.b@example.com')).toBe('ana.b');
      expect(assigneeShort(null)).toBe('');
      const labels = new Map<string, Label>([
        ['1', { label_id: '1', name: 'vip', color: '#000000', type: 'chat', created_at: '' }],
        ['2', { label_id: '2', name: 'billing', color: '#ffffff', type: 'chat', created_at: '' }],
      ]);
      expect(chatLabels(chat('a', { label_ids: { '1': true, '2': true, gone: true } }), labels).map((l) => l.name)).toEqual([
        'billing',
        'vip',
      ]);
      expect(chatLabels(chat('a'), labels)).toEqual([]);
      expect([
        chipTextColor('#000000'),
        chipTextColor('#ffffff'),
        chipTextColor('#0a58ca'),
        chipTextColor('#ffd700'),
        chipTextColor('nonsense'),
      ]).toEqual(['#fff', '#000', '#fff', '#000', '#000']);
      expect([chipBackground('#AbCdEf'), chipBackground('red')]).toEqual(['#AbCdEf', '#9e9e9e']);
    });
  });

  describe('live updates', () => {
    const list = [
      chat('a', { latest_message_timestamp: 3_000 }),
      chat('b', { latest_message_timestamp: 2_000, unread_count: { [P1]: 1, [P2]: 0 }, message_unread_count: 1 }),
      chat('c'),
    ];

    it('moves the chat of a new inbound message to the top, with the message and one more unread on its phone', () => {
      const next = withNewMessage(list, message('b@c.us', { org_phone: P2 }), null);
      expect(next?.map((c) => c.chat_id)).toEqual(['b@c.us', 'a@c.us', 'c@c.us']);
      expect(next?.[0]).toMatchObject({
        latest_message: { body: 'new' },
        latest_message_timestamp: 5_000,
        unread_count: { [P1]: 1, [P2]: 1 },
        message_unread_count: 1,
      });
      const again = withNewMessage(next ?? [], message('b@c.us', { org_phone: P2 }), null);
      expect(again?.[0]).toMatchObject({ unread_count: { [P1]: 1, [P2]: 2 }, message_unread_count: 2 });
      expect(list[1].unread_count).toEqual({ [P1]: 1, [P2]: 0 }); // the list given is not changed
    });

    it('counts nothing unread for a message sent from the phone, or in the open chat', () => {
      expect(withNewMessage(list, message('b@c.us', { from_me: true }), null)?.[0]).toMatchObject({
        unread_count: { [P1]: 0, [P2]: 0 },
        message_unread_count: 0,
      });
      expect(withNewMessage(list, message('c@c.us'), 'c@c.us')?.[0]).toMatchObject({ chat_id: 'c@c.us', message_unread_count: 0 });
    });

    it('leaves the order alone for an older message, and answers null for a chat not in the list', () => {
      expect(withNewMessage(list, message('b@c.us', { timestamp: new Date(1_500).toISOString() }), null)?.map((c) => c.chat_id)).toEqual([
        'a@c.us',
        'b@c.us',
        'c@c.us',
      ]);
      expect(withNewMessage(list, message('z@c.us'), null)).toBeNull();
    });

    it("keeps the member's own count apart: one more for a customer's message, none for one sent from the phone, 0 when open", () => {
      const mine = [chat('b', { member_unread_count: { 'amy@example.com': 2 }, unread_count: { [P1]: 5 }, message_unread_count: 5 })];
      expect(unreadOf(mine[0])).toBe(2);
      expect(withNewMessage(mine, message('b@c.us'), null)?.[0].member_unread_count).toEqual({ 'amy@example.com': 3 });
      expect(withNewMessage(mine, message('b@c.us', { from_me: true }), null)?.[0].member_unread_count).toEqual({ 'amy@example.com': 2 });
      expect(withNewMessage(mine, message('b@c.us'), 'b@c.us')?.[0].member_unread_count).toEqual({ 'amy@example.com': 0 });
      // the member's read is theirs: the phones' counts stay
      expect(withChatRead(mine, 'b@c.us', '447700900001')[0]).toMatchObject({
        member_unread_count: { 'amy@example.com': 0 },
        unread_count: { [P1]: 5 },
      });
      expect(unreadOf(chat('c', { member_unread_count: null, unread_count: { [P1]: 4 } }))).toBe(4);
    });

    it('reads a chat on one phone (or every phone)', () => {
      const two = [chat('b', { unread_count: { [P1]: 3, [P2]: 2 }, message_unread_count: 3 })];
      expect(withChatRead(two, 'b@c.us', '447700900001')[0]).toMatchObject({ unread_count: { [P1]: 0, [P2]: 2 }, message_unread_count: 2 });
      expect(withChatRead(two, 'b@c.us', '')[0]).toMatchObject({ unread_count: { [P1]: 0, [P2]: 0 }, message_unread_count: 0 });
      expect(withChatRead(two, 'x@c.us', '')[0]).toBe(two[0]);
    });
  });

  describe('SLA breach marks', () => {
    const entry = (chat_id: string, phone_id: string, since: string, due: string, ...names: string[]) => ({
      phone_id,
      chat_id,
      waiting_since: since,
      due_at: due,
      policies: names.map((name) => ({ name })),
    });
    const answer = {
      breaching: {
        chats: [
          entry('a@c.us', 'p1', '2026-11-30T09:00:00Z', '2026-11-30T09:15:00Z', 'VIP', 'First reply'),
          entry('b@c.us', 'p1', '2026-11-30T09:10:00Z', '2026-11-30T09:20:00Z', 'First reply'),
          entry('a@c.us', 'p2', '2026-11-30T08:50:00Z', '2026-11-30T09:05:00Z', 'First reply', 'Night'),
        ],
      },
    };

    it('marks each chat id once, with every policy it breaches on any phone and its earliest deadline', () => {
      const marks = breachMarks(answer);
      expect([...marks.keys()]).toEqual(['a@c.us', 'b@c.us']);
      expect(marks.get('a@c.us')).toEqual({ policies: ['First reply', 'Night', 'VIP'], dueAt: Date.parse('2026-11-30T09:05:00Z') });
      expect(breachMarks({})).toEqual(new Map()); // an answer without the list (no analytics): no marks
    });

    it('leaves out breaches a reply seen on the socket answered (a read that came before the service had it)', () => {
      const replied = new Map([['a@c.us', Date.parse('2026-11-30T08:55:00Z')]]);
      // the p2 wait started before the reply: answered; the p1 one after it: still breaching
      expect(breachMarks(answer, replied).get('a@c.us')).toEqual({
        policies: ['First reply', 'VIP'],
        dueAt: Date.parse('2026-11-30T09:15:00Z'),
      });
      expect(breachMarks(answer, new Map([['a@c.us', Date.parse('2026-11-30T09:30:00Z')]])).has('a@c.us')).toBe(false);
    });

    it('a reply takes its chat off at once; an incoming message or an unmarked chat changes nothing', () => {
      const marks = breachMarks(answer);
      expect([...(withoutBreach(marks, { chat_id: 'a@c.us', from_me: true }) ?? new Map()).keys()]).toEqual(['b@c.us']);
      expect(withoutBreach(marks, { chat_id: 'a@c.us', from_me: false })).toBeNull();
      expect(withoutBreach(marks, { chat_id: 'z@c.us', from_me: true })).toBeNull();
      expect(marks.size).toBe(2); // not changed in place
    });

    it('says which policies and when the deadline was', () => {
      const now = new Date(2026, 10, 30, 12, 0);
      expect(breachTitle({ policies: ['First reply', 'VIP'], dueAt: new Date(2026, 10, 30, 9, 5).getTime() }, now)).toBe(
        'SLA breached: First reply, VIP (deadline 09:05)',
      );
      expect(breachTitle({ policies: [], dueAt: new Date(2026, 10, 29, 9, 5).getTime() }, now)).toBe('SLA breached (deadline Yesterday)');
    });
  });
});
