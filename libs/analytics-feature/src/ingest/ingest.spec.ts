import { foldChat } from './chat-responses';
import { dedupeFacts, factOf, slotOf, type MessageFact } from './message-facts';

const ORG = '00000000-0000-4000-8000-000000000001';
const event = (event_type: string, data: Record<string, unknown>, created_at = '2026-11-01T10:00:00.000Z') => ({
  event_type,
  org_id: ORG,
  phone_id: 'phone-1',
  created_at,
  data: { message_id: 'm1', chat_id: '1555@c.us', timestamp: '2026-11-01T09:59:00+00:00', from_me: false, flag_status: null, ...data },
});

describe('factOf', () => {
  it("takes the message's own timestamp, direction, flag state and sender (performed_by)", () => {
    expect(factOf(event('message.created', {}))).toEqual({
      org_id: ORG,
      phone_id: 'phone-1',
      chat_id: '1555@c.us',
      message_id: 'm1',
      at: Date.parse('2026-11-01T09:59:00Z'),
      from_me: false,
      flagged: false,
      version: Date.parse('2026-11-01T10:00:00Z'),
      performed_by: null,
    });
    expect(factOf(event('message.created', { from_me: true, performed_by: 'a@x.io' }))?.performed_by).toBe('a@x.io');
    expect(factOf(event('message.created', { performed_by: '' }))?.performed_by).toBeNull();
    expect(factOf(event('message.flagged', { flag_status: true }))?.flagged).toBe(true);
    expect(factOf(event('message.unflagged', { flag_status: false }))?.flagged).toBe(false);
    expect(factOf(event('message.created', { from_me: true }))?.from_me).toBe(true);
  });

  it('counts nothing of other events, status updates or malformed messages', () => {
    expect(factOf(event('message.updated', {}))).toBeNull();
    expect(factOf(event('message.ack.updated', {}))).toBeNull();
    expect(factOf(event('message.created', { chat_id: 'status@broadcast' }))).toBeNull();
    expect(factOf(event('message.created', { is_status: true }))).toBeNull();
    expect(factOf(event('message.created', { timestamp: 'yesterday' }))).toBeNull();
    expect(factOf({ ...event('message.created', {}), phone_id: null })).toBeNull();
    expect(factOf({ ...event('message.created', {}), data: null })).toBeNull();
  });
});

describe('dedupeFacts', () => {
  it('keeps one fact per message copy, the newest flag state', () => {
    const base: MessageFact = {
      org_id: ORG,
      phone_id: 'p',
      chat_id: 'c',
      message_id: 'm',
      at: 1,
      from_me: false,
      flagged: false,
      version: 1,
    };
    const out = dedupeFacts([{ ...base, flagged: true, version: 3 }, base, { ...base, version: 2 }, { ...base, message_id: 'n' }]);
    expect(out).toHaveLength(2);
    expect(out.find((f) => f.message_id === 'm')).toMatchObject({ flagged: true, version: 3 });
  });
});

describe('slotOf', () => {
  it('is the start of the quarter hour', () => {
    expect(new Date(slotOf(Date.parse('2026-11-01T09:59:59.999Z'))).toISOString()).toBe('2026-11-01T09:45:00.000Z');
    expect(new Date(slotOf(Date.parse('2026-11-01T10:00:00Z'))).toISOString()).toBe('2026-11-01T10:00:00.000Z');
  });
});

describe('foldChat', () => {
  const msg = (message_id: string, at: number, from_me: boolean, performed_by?: string) => ({ message_id, at, from_me, performed_by });

  it('answers the first incoming message since the last outgoing one with the next outgoing one', () => {
    const fold = foldChat(null, [
      msg('i1', 0, false),
      msg('i2', 10, false),
      msg('o1', 50, true),
      msg('o2', 60, true),
      msg('i3', 100, false),
      msg('o3', 130, true, 'ana@example.com'),
      msg('i4', 200, false),
    ]);
    // i1 opens the chat: a first response; i3 comes after o1 answered the chat: a next response, by o3's sender
    expect(fold.samples).toEqual([
      { incoming_message_id: 'i1', incoming_at: 0, response_message_id: 'o1', response_at: 50, responder: null, next: false },
      {
        incoming_message_id: 'i3',
        incoming_at: 100,
        response_message_id: 'o3',
        response_at: 130,
        responder: 'ana@example.com',
        next: true,
      },
    ]);
    expect(fold.waiting).toEqual({ message_id: 'i4', at: 200 });
    expect(fold.last_outgoing_at).toBe(130);
    expect(fold.last_message_at).toBe(200);
  });

  it('starts after the outgoing message before the run; an outgoing message alone answers nothing', () => {
    const fold = foldChat({ at: 5 }, [msg('o1', 6, true)]);
    expect(fold).toEqual({ samples: [], waiting: null, last_outgoing_at: 6, last_message_at: 6 });
    expect(foldChat({ at: 5 }, [])).toEqual({ samples: [], waiting: null, last_outgoing_at: 5, last_message_at: 5 });
  });

  it('after an outgoing message before the run, every response is a next response', () => {
    const fold = foldChat({ at: 5 }, [msg('i1', 6, false), msg('o1', 9, true)]);
    expect(fold.samples).toEqual([
      { incoming_message_id: 'i1', incoming_at: 6, response_message_id: 'o1', response_at: 9, responder: null, next: true },
    ]);
    // a chat's waiting message folded on from its state: next when the state has an outgoing message, first when not
    expect(foldChat({ at: 5 }, [msg('o1', 9, true)], { message_id: 'i1', at: 6 }).samples[0].next).toBe(true);
    expect(foldChat(null, [msg('o1', 9, true)], { message_id: 'i1', at: 6 }).samples[0].next).toBe(false);
  });

  it("folds on from a chat's state: its waiting message is answered by the next outgoing one", () => {
    const whole = foldChat(null, [msg('i1', 0, false), msg('i2', 10, false), msg('o1', 50, true), msg('i3', 60, false)]);
    const first = foldChat(null, [msg('i1', 0, false)]);
    const rest = foldChat(null, [msg('i2', 10, false), msg('o1', 50, true), msg('i3', 60, false)], first.waiting);
    expect(rest).toEqual(whole);
    const longer = [...[0, 10, 60].map((at, i) => msg(`i${i}`, at, false)), msg('o1', 50, true), msg('o2', 70, true), msg('i9', 80, false)];
    longer.sort((a, b) => a.at - b.at);
    const all = foldChat(null, longer);
    const head = foldChat(null, longer.slice(0, 4));
    const tail = foldChat({ at: head.last_outgoing_at as number }, longer.slice(4), head.waiting);
    expect([...head.samples, ...tail.samples]).toEqual(all.samples);
    expect(all.samples.map((x) => x.next)).toEqual([false, true]);
  });
});
