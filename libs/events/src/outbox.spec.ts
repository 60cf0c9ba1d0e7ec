import type { Message, Phone } from '@mapi/contracts';
import { eventRowsParam, writeEvents, type DomainEvent, type EventInput } from './outbox';

declare const tx: Parameters<typeof writeEvents>[0];
declare const phone: Phone;
declare const message: Message;

/**
 * Compile-time checks (`npx tsc`): every line under `@ts-expect-error` must fail to compile — if one
 * compiled, tsc would report the directive as unused. Never called.
 */
export function typedWriterChecks(): void {
  void writeEvents(tx, [{ type: 'org.phone.updated', org_id: 'o', phone_id: 'p', data: phone }]);
  // @ts-expect-error a message is not a phone event's payload
  void writeEvents(tx, [{ type: 'org.phone.updated', org_id: 'o', data: message }]);
  // @ts-expect-error a part of the phone object is not the phone object
  void writeEvents(tx, [{ type: 'org.phone.connected', org_id: 'o', data: { phone_id: 'p', wa_state: 'CONNECTED' } }]);
  // @ts-expect-error a name outside the catalogue
  void writeEvents(tx, [{ type: 'phone.exploded', org_id: 'o', data: phone }]);
  eventRowsParam([{ type: 'message.ack.updated', org_id: 'o', data: message }]);
  // @ts-expect-error the pg-client path is typed the same way: an ack update carries the whole message
  eventRowsParam([{ type: 'message.ack.updated', org_id: 'o', data: { message_id: 'm', ack: '3' } }]);
  const mixed: EventInput[] = [
    { type: 'message.created', org_id: 'o', data: message },
    { type: 'org.phone.qr', org_id: 'o', data: phone },
  ];
  void mixed;
  const read = (e: DomainEvent): string | null => (e.event_type === 'org.phone.qr' ? e.data.qr_code : null); // narrowing the name narrows data
  void read;
}

describe('eventRowsParam (the rows writeEvents inserts)', () => {
  it('numbers the events in order, gives each a new id and keeps the object as given', () => {
    const standIns = [
      { type: 'message.created', org_id: 'o1', phone_id: 'p1', data: { body: 'a' } },
      { type: 'org.phone.updated', org_id: 'o1', data: { phone_id: 'p2' } },
    ];
    const rows = JSON.parse(eventRowsParam(standIns as EventInput[]));
    expect(rows.map((r: { n: number; type: string; phone_id: string | null }) => [r.n, r.type, r.phone_id])).toEqual([
      [0, 'message.created', 'p1'],
      [1, 'org.phone.updated', null],
    ]);
    expect(rows[0].id).not.toBe(rows[1].id);
    expect(rows.map((r: { payload: unknown }) => r.payload)).toEqual([{ body: 'a' }, { phone_id: 'p2' }]);
    expect(typeof typedWriterChecks).toBe('function');
  });
});
