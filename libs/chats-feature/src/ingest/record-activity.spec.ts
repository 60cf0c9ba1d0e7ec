import { foldActivity } from './record-activity';
import type { PhoneMessageRow } from '../rows/message-row';

const row = (phone: string, chat: string, id: string, at: number, fromMe = false) =>
  ({ phone_id: phone, chat_id: chat, message_id: id, timestamp: new Date(at), from_me: fromMe }) as PhoneMessageRow;

describe('foldActivity', () => {
  it('keeps the newest message per phone and chat (a later arrival wins a tie) and counts live inbound messages', () => {
    const rows = [
      row('p1', 'a', 'm1', 1000),
      row('p1', 'a', 'm2', 3000),
      row('p1', 'a', 'm3', 3000),
      row('p1', 'a', 'm0', 500),
      row('p2', 'a', 'x', 10),
    ];
    expect(foldActivity(rows, () => true)).toEqual([
      { phone_id: 'p1', chat_id: 'a', message_id: 'm3', ts: new Date(3000).toISOString(), unread_add: 4, unread_reset: null },
      { phone_id: 'p2', chat_id: 'a', message_id: 'x', ts: new Date(10).toISOString(), unread_add: 1, unread_reset: null },
    ]);
  });

  it('restarts the unread count after a live message sent from the phone', () => {
    const rows = [row('p', 'a', '1', 1), row('p', 'a', '2', 2, true), row('p', 'a', '3', 3), row('p', 'a', '4', 4)];
    expect(foldActivity(rows, () => true)[0]).toMatchObject({ unread_add: 1, unread_reset: 2 });
  });

  it('leaves the unread count alone for history (not live) messages', () => {
    const rows = [row('p', 'a', '1', 1), row('p', 'a', '2', 2, true)];
    expect(foldActivity(rows, () => false)[0]).toMatchObject({ message_id: '2', unread_add: 0, unread_reset: null });
  });
});
