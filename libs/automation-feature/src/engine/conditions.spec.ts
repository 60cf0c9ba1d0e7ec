import type { ConditionGroup, ConditionLeaf } from '@mapi/contracts';
import { evaluateGroup, evaluateLeaf } from './conditions';
import { workflowData, type WorkflowData } from './workflow-data';

const message = (over: Record<string, unknown> = {}) => ({
  message_id: 'm1',
  chat_id: '14155550123@c.us',
  org_phone: '14155550100',
  sender_phone: '14155550123',
  from_me: false,
  body: 'Hello, I need URGENT help',
  timestamp: '2026-11-26T09:30:00+00:00',
  ack: '1',
  mentioned_ids: ['a', 'b'],
  has_media: false,
  forwarding_score: 3,
  ...over,
});
const data = (over: Record<string, unknown> = {}): WorkflowData =>
  workflowData('message.created', {
    event_type: 'message.created',
    phone_id: 'p1',
    created_at: '2026-11-26T09:30:00.000Z',
    data: message(over),
  });
const leaf = (l: Partial<ConditionLeaf> & Pick<ConditionLeaf, 'variable_type' | 'condition'>): ConditionLeaf =>
  ({ id: 'c', variable_name: 'message.body', value: '', ...l }) as ConditionLeaf;

describe('evaluateLeaf', () => {
  it.each([
    ['CONTAINS', 'urgent', true],
    ['CONTAINS', 'calm', false],
    ['NCONTAINS', 'calm', true],
    ['NCONTAINS', 'URGENT', false],
    ['EQUALS', 'hello, i need urgent help', true],
    ['EQUALS', 'hello', false],
    ['NEQUALS', 'hello', true],
    ['NEQUALS', 'Hello, I need URGENT help', false],
    ['STARTS_WITH', 'hello', true],
    ['STARTS_WITH', 'help', false],
    ['ENDS_WITH', 'HELP', true],
    ['ENDS_WITH', 'hello', false],
  ])('string %s %j → %s (case-insensitive)', (condition, value, expected) => {
    expect(evaluateLeaf(leaf({ variable_type: 'string', condition: condition as never, value }), data())).toBe(expected);
  });

  it('reads numbers and booleans as text for string conditions', () => {
    expect(
      evaluateLeaf(leaf({ variable_name: 'message.forwarding_score', variable_type: 'string', condition: 'EQUALS', value: '3' }), data()),
    ).toBe(true);
    expect(
      evaluateLeaf(leaf({ variable_name: 'message.from_me', variable_type: 'string', condition: 'EQUALS', value: 'false' }), data()),
    ).toBe(true);
  });

  it.each([
    ['GREATER_THAN', '2', true],
    ['GREATER_THAN', '3', false],
    ['GREATER_THAN_OR_EQUAL', '3', true],
    ['GREATER_THAN_OR_EQUAL', 4, false],
    ['LESS_THAN', '4', true],
    ['LESS_THAN', '3', false],
    ['LESS_THAN_OR_EQUAL', 3, true],
    ['LESS_THAN_OR_EQUAL', '2.5', false],
  ])('number %s %j → %s', (condition, value, expected) => {
    expect(
      evaluateLeaf(
        leaf({ variable_name: 'message.forwarding_score', variable_type: 'number', condition: condition as never, value: value as never }),
        data(),
      ),
    ).toBe(expected);
  });

  it('a number condition on text that is not a number is false', () => {
    expect(evaluateLeaf(leaf({ variable_type: 'number', condition: 'GREATER_THAN', value: '0' }), data())).toBe(false);
    expect(evaluateLeaf(leaf({ variable_type: 'number', condition: 'LESS_THAN', value: '0' }), data())).toBe(false);
  });

  it('number reads numeric strings (ack)', () => {
    expect(
      evaluateLeaf(leaf({ variable_name: 'message.ack', variable_type: 'number', condition: 'GREATER_THAN_OR_EQUAL', value: '1' }), data()),
    ).toBe(true);
  });

  it.each([
    ['GREATER_THAN', '2026-11-26T09:00:00Z', true],
    ['GREATER_THAN', '2026-11-26T10:00:00Z', false],
    ['LESS_THAN', '2026-11-26T11:00:00+01:00', true],
    ['LESS_THAN', '2026-11-26T10:00:00+01:00', false],
    ['GREATER_THAN_OR_EQUAL', '2026-11-26T09:30:00Z', true],
    ['LESS_THAN_OR_EQUAL', String(Date.parse('2026-11-26T09:30:00Z')), true],
  ])('date %s %s → %s (instants, offsets honoured)', (condition, value, expected) => {
    expect(
      evaluateLeaf(leaf({ variable_name: 'message.timestamp', variable_type: 'date', condition: condition as never, value }), data()),
    ).toBe(expected);
  });

  it("time compares the time of day in the condition's time zone", () => {
    // 09:30 UTC is 15:00 in Kolkata (+05:30) and 04:30 in New York (EST, -05:00)
    const t = (condition: string, value: string, timezone: string) =>
      evaluateLeaf(
        leaf({ variable_name: 'message.timestamp', variable_type: 'time', condition: condition as never, value, timezone }),
        data(),
      );
    expect(t('GREATER_THAN_OR_EQUAL', '15:00', 'Asia/Kolkata')).toBe(true);
    expect(t('GREATER_THAN', '15:00', 'Asia/Kolkata')).toBe(false);
    expect(t('LESS_THAN', '09:00', 'America/New_York')).toBe(true);
    expect(t('LESS_THAN', '04:30', 'America/New_York')).toBe(false);
    expect(t('LESS_THAN_OR_EQUAL', '04:30:00', 'America/New_York')).toBe(true);
    expect(t('GREATER_THAN', '09:29:59', 'UTC')).toBe(true);
  });

  it("day is the weekday in the condition's time zone (a date line apart)", () => {
    // 2026-11-26T23:30Z is a Thursday in UTC and already Friday in Tokyo, still Thursday in Los Angeles
    const late = data({ timestamp: '2026-11-26T23:30:00+00:00' });
    const on = (value: string | string[], timezone: string) =>
      evaluateLeaf(
        leaf({ variable_name: 'message.timestamp', variable_type: 'day', condition: 'ON', value: value as never, timezone }),
        late,
      );
    expect(on('thursday', 'UTC')).toBe(true);
    expect(on('friday', 'Asia/Tokyo')).toBe(true);
    expect(on('thursday', 'Asia/Tokyo')).toBe(false);
    expect(on(['monday', 'thursday'], 'America/Los_Angeles')).toBe(true);
    expect(on(['saturday', 'sunday'], 'America/Los_Angeles')).toBe(false);
  });

  it.each([
    ['IS', false, true],
    ['IS', 'false', true],
    ['IS', true, false],
    ['IS_NOT', true, true],
    ['IS_NOT', 'false', false],
  ])('boolean %s %j → %s', (condition, value, expected) => {
    expect(
      evaluateLeaf(
        leaf({ variable_name: 'message.from_me', variable_type: 'boolean', condition: condition as never, value: value as never }),
        data(),
      ),
    ).toBe(expected);
  });

  it('a boolean condition on a non-boolean value is false either way', () => {
    expect(evaluateLeaf(leaf({ variable_type: 'boolean', condition: 'IS', value: true }), data())).toBe(false);
    expect(evaluateLeaf(leaf({ variable_type: 'boolean', condition: 'IS_NOT', value: true }), data())).toBe(false);
  });

  it.each([
    ['IS_ANY_OF', ['x', 'B'], true],
    ['IS_ANY_OF', ['x', 'y'], false],
    ['IS_NOT_ANY_OF', ['x', 'y'], true],
    ['IS_NOT_ANY_OF', ['a'], false],
  ])('array %s %j → %s (case-insensitive)', (condition, value, expected) => {
    expect(
      evaluateLeaf(
        leaf({ variable_name: 'message.mentioned_ids', variable_type: 'array', condition: condition as never, value: value as never }),
        data(),
      ),
    ).toBe(expected);
  });

  it('array reads label_ids objects and comma-separated text', () => {
    const chat = workflowData('chat.label.updated', {
      event_type: 'chat.label.updated',
      data: { chat_id: 'c@c.us', label_ids: { vip: true, old: false }, chat_labels: 'vip, lead' },
    });
    expect(
      evaluateLeaf(leaf({ variable_name: 'chat.label_ids', variable_type: 'array', condition: 'IS_ANY_OF', value: ['VIP'] }), chat),
    ).toBe(true);
    expect(
      evaluateLeaf(leaf({ variable_name: 'chat.label_ids', variable_type: 'array', condition: 'IS_ANY_OF', value: ['old'] }), chat),
    ).toBe(false);
    expect(
      evaluateLeaf(leaf({ variable_name: 'chat.chat_labels', variable_type: 'array', condition: 'IS_ANY_OF', value: ['lead'] }), chat),
    ).toBe(true);
  });

  it('IS_KNOWN / IS_UNKNOWN', () => {
    const known = (name: string) =>
      evaluateLeaf(
        leaf({ variable_name: name, variable_type: null, condition: 'IS_KNOWN', value: null }),
        data({ author: null, body: '' }),
      );
    const unknown = (name: string) =>
      evaluateLeaf(
        leaf({ variable_name: name, variable_type: null, condition: 'IS_UNKNOWN', value: null }),
        data({ author: null, body: '' }),
      );
    expect(known('message.chat_id')).toBe(true);
    expect(unknown('message.chat_id')).toBe(false);
    for (const missing of ['message.author', 'message.body', 'message.nothing', 'ticket.subject', 'message.chat_id.deeper']) {
      expect(known(missing)).toBe(false);
      expect(unknown(missing)).toBe(true);
    }
  });

  it('a missing variable fails every other condition, negative ones included', () => {
    const d = data({ body: null });
    for (const l of [
      leaf({ variable_type: 'string', condition: 'NCONTAINS', value: 'x' }),
      leaf({ variable_type: 'string', condition: 'NEQUALS', value: 'x' }),
      leaf({ variable_type: 'boolean', condition: 'IS_NOT', value: true }),
      leaf({ variable_type: 'array', condition: 'IS_NOT_ANY_OF', value: ['x'] }),
      leaf({ variable_type: 'number', condition: 'LESS_THAN', value: '5' }),
      leaf({ variable_name: 'sender.nothing', variable_type: 'day', condition: 'ON', value: 'monday', timezone: 'UTC' } as never),
    ])
      expect(evaluateLeaf(l, d)).toBe(false);
  });

  it('sender and chat objects come from the message', () => {
    const d = data();
    expect(
      evaluateLeaf(leaf({ variable_name: 'sender.phone', variable_type: 'string', condition: 'EQUALS', value: '14155550123' }), d),
    ).toBe(true);
    expect(evaluateLeaf(leaf({ variable_name: 'chat.chat_type', variable_type: 'string', condition: 'EQUALS', value: 'user' }), d)).toBe(
      true,
    );
    expect(evaluateLeaf(leaf({ variable_name: 'message.text', variable_type: 'string', condition: 'CONTAINS', value: 'urgent' }), d)).toBe(
      true,
    );
  });
});

describe('evaluateGroup', () => {
  const T: ConditionLeaf = { id: 't', variable_name: 'message.body', variable_type: 'string', condition: 'CONTAINS', value: 'urgent' };
  const F: ConditionLeaf = { id: 'f', variable_name: 'message.body', variable_type: 'string', condition: 'CONTAINS', value: 'calm' };
  const g = (operator: 'AND' | 'OR', ...conditions: ConditionGroup['conditions']): ConditionGroup => ({ operator, conditions });

  it.each([
    [g('AND', T, T), true],
    [g('AND', T, F), false],
    [g('OR', F, T), true],
    [g('OR', F, F), false],
    [g('AND'), true],
    [g('OR'), true],
    [g('AND', T, g('OR', F, T)), true],
    [g('AND', T, g('OR', F, F)), false],
    [g('OR', F, g('AND', T, g('OR', F, g('AND', T, T)))), true],
    [g('OR', F, g('AND', T, g('OR', F, g('AND', T, F)))), false],
  ])('group %# holds: %s', (group, expected) => {
    expect(evaluateGroup(group, data())).toBe(expected);
  });
});
