import { PrivateMosquitto, randomSuffix } from '@mapi/testing';
import { deliversAcrossKills, listenMqtt, orderedThrough, refusedAndDelivered, useSinkStack, type Listener } from './support/event-sinks';

/**
 * MQTT sinks against the machine's Mosquitto (127.0.0.1:1883, anonymous): topic `<prefix>/<event name>`
 * at QoS 1, every event arriving while the dispatcher is SIGKILLed mid-stream. Against Mosquittos of
 * the test's own: one that requires a password (a wrong one is a failed attempt in the delivery log),
 * and one with persistence that is restarted mid-stream (nothing lost, each chat's order kept).
 */
describe('event sinks: MQTT (Mosquitto)', () => {
  let main: Listener;
  let guarded: PrivateMosquitto;
  let own: PrivateMosquitto;
  const prefix = `mapi-test-${randomSuffix(4)}`;

  const env = useSinkStack(async () => {
    [main, guarded, own] = await Promise.all([
      listenMqtt('mqtt://127.0.0.1:1883', `${prefix}/#`, `${prefix}-sub`),
      // "the user's" broker whose credentials we get wrong
      PrivateMosquitto.start({ users: { crm: 'right-password' } }),
      PrivateMosquitto.start(),
    ]);
  });

  afterAll(async () => {
    await main?.close();
    await guarded?.destroy();
    await own?.destroy();
  });

  it('delivers every event to <prefix>/<event name> at QoS 1 while the dispatcher is SIGKILLed mid-stream', async () => {
    await deliversAcrossKills(
      env,
      { transport: 'mqtt', url: 'mqtt://127.0.0.1:1883', config: { topicPrefix: prefix, protocolVersion: 5 } },
      main,
      'mqtt sink',
    );
    expect([...main.keys]).toEqual([`${prefix}/message.created`]);
  });

  it("loses none and keeps each chat's order when its Mosquitto is restarted mid-stream", async () => {
    const topicPrefix = `${prefix}-restart`;
    // a persistent session: what the broker takes while the subscriber is away (the restart) comes after
    const got = await listenMqtt(own.url, `${topicPrefix}/#`, `${topicPrefix}-sub`, { persistent: true });
    try {
      const sink = { transport: 'mqtt', url: own.url, config: { topicPrefix, protocolVersion: 4 } };
      const run = await orderedThrough(env, sink, got, {
        type: 'message.updated',
        total: 300,
        at: 0,
        afterArrivals: 40,
        disrupt: () => own.restart(),
      });
      process.stdout.write(
        `mqtt sink, Mosquitto restarted mid-stream: ${run.total} events in ${run.tookMs} ms, in order per chat, ${run.duplicates} duplicates, ${run.failedAttempts} failed attempts retried\n`,
      );
    } finally {
      await got.close();
    }
  }, 90_000);

  it('shows a wrong password in the delivery log and keeps delivering to the other sink', async () => {
    await refusedAndDelivered(
      env,
      {
        bad: { transport: 'mqtt', url: guarded.url, credentials: { username: 'crm', password: 'wrong-password' } },
        good: { transport: 'mqtt', url: guarded.url, credentials: { username: 'crm', password: 'right-password' } },
      },
      /^mqtt: .*(Not authorized|Bad username or password)/i,
    );
  });
});
