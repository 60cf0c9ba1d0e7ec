import { createServer, type AddressInfo, type LookupFunction } from 'node:net';
import { CreateEventSinksBody, KafkaConfigSchema } from '@mapi/contracts';
import { chatKeyOf, policySocketFactory } from './kafka-transport';

describe('Kafka sink transport', () => {
  it("keys a record by the body's data.chat_id, and leaves it unkeyed without one", () => {
    expect(chatKeyOf(JSON.stringify({ event: 'message.created', data: { chat_id: '5511999@s.whatsapp.net' } }))).toBe(
      '5511999@s.whatsapp.net',
    );
    for (const body of ['{"data":{}}', '{"data":{"chat_id":""}}', '{"data":{"chat_id":42}}', '{"data":null}', 'null', 'not json'])
      expect(chatKeyOf(body)).toBeNull();
  });

  it('connects a socket only to an address the lookup passes, and fails it with the lookup error otherwise', async () => {
    const server = createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const asked: string[] = [];
    const lookup: LookupFunction = (host, _o, cb) => {
      asked.push(host);
      return host === 'broker.example' ? cb(null, '127.0.0.1', 4) : cb(new Error(`address ${host} is not allowed`), '', 0);
    };
    const factory = policySocketFactory(lookup, { alias: 'broker.example' });
    try {
      const connected = await new Promise<boolean>((resolve) => {
        const s = factory({ host: 'alias', port, ssl: undefined as never, onConnect: () => (s.destroy(), resolve(true)) });
        s.on('error', () => resolve(false));
      });
      expect(connected).toBe(true);
      const refused = await new Promise<Error>((resolve) => {
        const s = factory({ host: '10.0.0.5', port, ssl: undefined as never, onConnect: () => resolve(new Error('connected')) });
        s.on('error', resolve);
      });
      expect(refused.message).toBe('address 10.0.0.5 is not allowed');
      expect(asked).toEqual(['broker.example', '10.0.0.5']);
    } finally {
      server.close();
    }
  });

  it('takes kafka:// and kafkas:// URLs, a topic name, a SASL mechanism, and orders by chat unless told not to', () => {
    expect(KafkaConfigSchema.parse({})).toEqual({ topic: 'mapi-events', saslMechanism: 'plain', orderByChat: true });
    const body = (over: object) =>
      CreateEventSinksBody.safeParse({ transport: 'kafka', url: 'kafkas://k.example.com:9093', events: 'chat.created', ...over });
    expect(body({ config: { topic: 'crm.events_v1', saslMechanism: 'scram-sha-512', orderByChat: false } }).success).toBe(true);
    expect(body({ url: 'kafka://k.example.com' }).success).toBe(true);
    for (const bad of [
      { url: 'amqp://k.example.com' },
      { url: 'kafka://user:pw@k.example.com' },
      { config: { topic: 'a b' } },
      { config: { topic: '..' } },
      { config: { topic: 'x'.repeat(250) } },
      { config: { saslMechanism: 'gssapi' } },
      { config: { partitions: 3 } },
    ])
      expect(body(bad).success).toBe(false);
  });
});
