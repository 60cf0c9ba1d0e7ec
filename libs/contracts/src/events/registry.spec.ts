import { z } from 'zod';
import { MessageSchema } from '../chats/message/message.schema';
import { PhoneSchema } from '../phones/phone/phone.schema';
import { defineEvent } from './define-event';
import { EVENT_NAMES } from './event-names';
import { EVENTS, eventSubjectOf, isEventName, previousAttributes } from './registry';

describe('defineEvent subject naming: events.v<N>.<name>', () => {
  it.each([
    ['message.created', 'events.v1.message.created'],
    ['chat.custom_properties.updated', 'events.v2.chat.custom_properties.updated'],
  ] as const)('accepts %p on %p and returns the definition unchanged', (name, subject) => {
    const event = { name, subject, summary: 's', data: z.object({}) };
    expect(defineEvent(event)).toBe(event);
  });

  it.each([
    ['no version', 'events.message.created'],
    ['another name', 'events.v1.message.updated'],
    ['another prefix', 'chats.v1.message.created'],
    ['a version without a number', 'events.v.message.created'],
    ['a trailing segment', 'events.v1.message.created.x'],
    ['a wildcard', 'events.v1.>'],
  ])('rejects a subject with %s', (_what, subject) => {
    expect(() => defineEvent({ name: 'message.created', subject, summary: 's', data: z.object({}) })).toThrow(
      `${subject} must look like events.v<N>.message.created`,
    );
  });
});

describe('EVENTS (the registry)', () => {
  it('defines every catalogue name once, under its own name, on events.v1.<name>', () => {
    expect(Object.keys(EVENTS).sort()).toEqual([...EVENT_NAMES].sort());
    for (const [name, event] of Object.entries(EVENTS)) {
      expect(event.name).toBe(name);
      expect(event.subject).toBe(`events.v1.${name}`);
      expect(event.summary.length).toBeGreaterThan(0);
    }
  });

  it('gives message events the spec 2.1 message and phone events the phone object', () => {
    for (const name of EVENT_NAMES) {
      if (name.startsWith('message.')) expect(EVENTS[name].data).toBe(MessageSchema);
      if (name.startsWith('org.phone.')) expect(EVENTS[name].data).toBe(PhoneSchema);
    }
  });

  it("knows its names, and still gives an unknown name (a newer release's) a subject under events.", () => {
    expect(isEventName('reaction.created')).toBe(true);
    expect(isEventName('toString')).toBe(false);
    expect(eventSubjectOf('org.phone.qr')).toBe('events.v1.org.phone.qr');
    expect(eventSubjectOf('chat.archived')).toBe('events.v1.chat.archived');
  });
});

describe('previousAttributes: what an update replaced', () => {
  it('keeps the attributes whose values changed, with their values before, compared as JSON', () => {
    const before = { ack: '1', body: 'hi', delivery_info: { read_count: 0 }, labels: ['a'], prev_body: null as string | null };
    const after = { ack: '3', body: 'hi', delivery_info: { read_count: 1 }, labels: ['a'], prev_body: 'hi' };
    expect(previousAttributes(before, after)).toEqual({ ack: '1', delivery_info: { read_count: 0 }, prev_body: null });
  });

  it('is empty when nothing changed', () => {
    expect(previousAttributes({ a: 1, b: [1, 2] }, { a: 1, b: [1, 2] })).toEqual({});
  });
});
