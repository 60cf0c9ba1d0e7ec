import { attemptKey, deliveriesPath, logColumns, redeliveredNote, replayNote, replayWindow } from './delivery-log-view';

describe('console delivery log logic (webhooks, event sinks)', () => {
  it('shows the Response column only where the receiver answers with a body', () => {
    expect(logColumns(true)).toEqual(['When', 'Event', 'Attempt', 'Outcome', 'Time', 'Response', 'Redeliver']);
    expect(logColumns(false)).toEqual(['When', 'Event', 'Attempt', 'Outcome', 'Time', 'Redeliver']);
  });
  it('keys a row by event, attempt and time, so a redelivery of the same event is a row of its own', () => {
    const first = { event_id: 'ev_1', attempt: 1, attempted_at: '2026-01-01T10:00:00.000Z' };
    expect(attemptKey(first)).toBe('ev_1/1/2026-01-01T10:00:00.000Z');
    expect(attemptKey({ ...first, attempted_at: '2026-01-01T10:05:00.000Z' })).not.toBe(attemptKey(first));
    expect(attemptKey({ ...first, attempt: 2 })).not.toBe(attemptKey(first));
  });
  it('reads the log of the subscription or sink it is given, newest 100 by default', () => {
    expect(deliveriesPath('/webhooks/wh_1')).toBe('/webhooks/wh_1/deliveries?limit=100');
    expect(deliveriesPath('/event-sinks/es_2', 20)).toBe('/event-sinks/es_2/deliveries?limit=20');
  });
  it('says what a redelivery and a replay did', () => {
    expect(redeliveredNote('ev_9')).toBe('Event ev_9 scheduled again.');
    expect(replayNote(3)).toBe('Replay: 3 event(s) scheduled.');
    expect(replayNote(0)).toBe('Replay: 0 event(s) scheduled.');
  });
  it('turns the replay window into ISO instants, refusing a missing, unreadable, empty or reversed one', () => {
    const w = replayWindow('2026-01-01T10:00', '2026-01-01T11:00');
    expect(w).toEqual({ from: new Date('2026-01-01T10:00').toISOString(), to: new Date('2026-01-01T11:00').toISOString() });
    expect(replayWindow('', '2026-01-01T11:00')).toEqual({ error: 'Give both the start and the end of the window.' });
    expect(replayWindow('2026-01-01T10:00', 'not a time')).toEqual({ error: 'Give both the start and the end of the window.' });
    expect(replayWindow('2026-01-01T11:00', '2026-01-01T11:00')).toEqual({ error: 'The start must be before the end.' });
    expect(replayWindow('2026-01-01T11:00', '2026-01-01T10:00')).toEqual({ error: 'The start must be before the end.' });
  });
});
