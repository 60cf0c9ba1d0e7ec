import { MessageSchema } from '@mapi/contracts';
import { mapMessage } from '../messages/map-message';
import { MESSAGE_API_KEYS, messageApiLateral, messageReadyLateral } from './message-api-sql';
import type { MessageRow } from './message-row';

/** The SQL twin of mapMessage names the same keys in the same order (its values: message-api-sql.int-spec.ts). */
describe('the message object built by Postgres (message-api-sql)', () => {
  const row = { timestamp: new Date(0), updated_at: new Date(0), ack: 0, vcards: null } as unknown as MessageRow;

  it("lists mapMessage's keys in mapMessage's order", () => {
    expect([...MESSAGE_API_KEYS]).toEqual(Object.keys(mapMessage(row)));
  });

  it("lists every key of the contract's message object", () => {
    expect([...MESSAGE_API_KEYS].sort()).toEqual(Object.keys(MessageSchema.shape).sort());
  });

  it('names each key once in the select list, in that order', () => {
    const names = [...messageApiLateral.sql.matchAll(/ AS "([a-z_0-9]+)"/g)].map((m) => m[1]);
    expect(names).toEqual([...MESSAGE_API_KEYS]);
  });

  it('names each key once in the ready select list (its last lateral), in that order', () => {
    const api = messageReadyLateral.sql.slice(messageReadyLateral.sql.lastIndexOf('LATERAL ('));
    expect(api).toMatch(/\) api$/);
    expect([...api.matchAll(/ AS "([a-z_0-9]+)"/g)].map((m) => m[1])).toEqual([...MESSAGE_API_KEYS]);
  });
});
