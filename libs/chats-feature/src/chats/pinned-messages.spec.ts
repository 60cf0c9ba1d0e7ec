import { livePins, livePinsOfCopies, storedPins, withPinChange, type StoredPin } from './pinned-messages';

const DAY = 24 * 3600 * 1000;
const pin = (message_id: string, at: number, pinned = true, days = 7): StoredPin => ({
  message_id,
  at,
  pinned,
  expires_at: pinned ? at + days * DAY : null,
});

describe('pinned messages', () => {
  const now = Date.parse('2026-06-01T00:00:00.000Z');

  it("applies a change newer than the message's last one, and nothing else (a redelivery, a late older pin)", () => {
    const one = withPinChange([], pin('m1', now)) as StoredPin[];
    expect(one).toEqual([pin('m1', now)]);
    expect(withPinChange(one, pin('m1', now))).toBeNull();
    expect(withPinChange(one, pin('m1', now - 1, false))).toBeNull();
    expect(withPinChange(one, pin('m1', now + 1, false))).toEqual([pin('m1', now + 1, false)]);
    expect(withPinChange(one, pin('m2', now + 1))).toEqual([pin('m1', now), pin('m2', now + 1)]);
  });

  it('drops entries ended more than a month before a change, keeps recent unpins (they guard against late pins)', () => {
    const old = [
      pin('gone', now - 40 * DAY, false),
      pin('expired', now - 60 * DAY),
      pin('recent', now - 2 * DAY, false),
      pin('live', now - DAY),
    ];
    expect(withPinChange(old, pin('m', now))?.map((p) => p.message_id)).toEqual(['recent', 'live', 'm']);
  });

  it("shows live pins, newest first, in the chat object's shape; none is null", () => {
    const stored = [pin('a', now - 3 * DAY), pin('b', now - DAY), pin('c', now - 8 * DAY), pin('d', now - DAY / 2, false)];
    expect(livePins(stored, now)).toEqual([
      { message_id: 'b', pinned_at: now - DAY, expires_at: now + 6 * DAY },
      { message_id: 'a', pinned_at: now - 3 * DAY, expires_at: now + 4 * DAY },
    ]);
    expect(livePins([pin('c', now - 8 * DAY)], now)).toBeNull();
    expect(livePins(null, now)).toBeNull();
    expect(storedPins({ not: 'a list' })).toEqual([]);
  });

  it('merges the copies of a chat: each message once, its newest change deciding', () => {
    expect(livePinsOfCopies([[pin('a', now - DAY)], [pin('a', now - DAY / 2, false), pin('b', now - DAY)], null], now)).toEqual([
      { message_id: 'b', pinned_at: now - DAY, expires_at: now + 6 * DAY },
    ]);
  });
});
