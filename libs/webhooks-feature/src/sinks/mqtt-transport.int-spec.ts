import { PrivateMosquitto } from '@mapi/testing';
import { connectMqtt } from './mqtt-transport';
import type { SinkConnection } from './sink-transport';

/**
 * The MQTT transport against a Mosquitto of the test's own: a publish under way when the connection is
 * lost fails at once (mqtt.js alone keeps a QoS 1 publish for a reconnect that never comes here, so
 * it would end only at the router's timeout, and a timed-out delivery waits a minute to be retried).
 */
jest.setTimeout(60_000);

describe('MQTT sink transport', () => {
  let broker: PrivateMosquitto;
  let conn: SinkConnection | undefined;

  beforeAll(async () => {
    broker = await PrivateMosquitto.start();
  });

  afterAll(async () => {
    await conn?.close();
    await broker?.destroy();
  });

  it('fails a publish under way as soon as the broker goes away, and says the connection is closed', async () => {
    conn = await connectMqtt({
      url: new URL(broker.url),
      address: '127.0.0.1',
      config: { topicPrefix: 'mapi-test' },
      credentials: {},
      timeoutMs: 5_000,
      clientName: 'mapi-transport-test',
    });
    const message = { event: 'message.created', eventId: 'e1', body: '{}', headers: {} };
    await conn.publish(message); // the PUBACK came
    broker.freeze(); // the next PUBACK never comes
    const pending = conn.publish({ ...message, eventId: 'e2' });
    const outcome = pending.then(
      () => 'acked',
      (err: Error) => err.message,
    );
    await new Promise((r) => setTimeout(r, 300));
    const killedAt = Date.now();
    await broker.kill();
    expect(await outcome).not.toBe('acked');
    expect(Date.now() - killedAt).toBeLessThan(2_000);
    expect(conn.closed).toBe(true);
  });
});
