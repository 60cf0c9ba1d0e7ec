import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type NatsConnection } from 'nats';
import { PrivateNats, freePort, randomSuffix } from '@mapi/testing';
import {
  deliversAcrossKills,
  failedAttempt,
  listenNats,
  listenStream,
  orderedThrough,
  refusedAndDelivered,
  useSinkStack,
  type Listener,
} from './support/event-sinks';

/**
 * NATS sinks against nats-servers the test starts as "the user's" (never the project's own): a JetStream
 * publish per event on `<prefix>.<event name>` with Nats-Msg-Id = event id, so a dispatcher SIGKILLed
 * mid-stream loses none and its redeliveries leave exactly one stream message per event; the user's
 * server SIGKILLed and restarted mid-stream loses none either, with each chat's order kept (orderByChat);
 * a server that requires a password shows a wrong one in the delivery log.
 */
describe('event sinks: NATS (JetStream)', () => {
  let users: PrivateNats;
  let nc: NatsConnection;
  let main: Listener;
  let guarded: ChildProcess | undefined;
  let guardedPort = 0;
  const prefix = `mapi.test${randomSuffix(4)}`;
  const stream = `SINK_${randomSuffix(4)}`;

  const env = useSinkStack(async () => {
    users = await PrivateNats.start();
    nc = await connect({ servers: users.url, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: stream, subjects: [`${prefix}.>`], duplicate_window: 120_000_000_000 });
    main = listenNats(nc, `${prefix}.>`);
    guardedPort = await freePort();
    guarded = spawn(
      process.env.NATS_SERVER_BIN ?? 'nats-server',
      ['-a', '127.0.0.1', '-p', String(guardedPort), '--user', 'crm', '--pass', 'right-password'],
      { stdio: 'ignore' },
    );
  });

  afterAll(async () => {
    await main?.close();
    await nc?.close();
    guarded?.kill('SIGKILL');
    await users?.destroy();
  });

  it('publishes every event to the stream once (Nats-Msg-Id) while the dispatcher is SIGKILLed mid-stream', async () => {
    const sink = { transport: 'nats', url: users.url, config: { subjectPrefix: prefix, jetstream: true } };
    await deliversAcrossKills(env, sink, main, 'nats sink (core subscriber; duplicate publishes dropped by the stream)');
    expect([...main.keys]).toEqual([`${prefix}.message.created`]);
    const info = await (await nc.jetstreamManager()).streams.info(stream);
    expect(info.state.messages).toBe(600);
  });

  it("loses none, in each chat's order, when the user's nats-server is SIGKILLed and restarted mid-stream (JetStream store kept)", async () => {
    const restartPrefix = `${prefix}r`;
    const restartStream = `${stream}_R`;
    await (
      await nc.jetstreamManager()
    ).streams.add({ name: restartStream, subjects: [`${restartPrefix}.>`], duplicate_window: 120_000_000_000 });
    // the stream as it is stored, read by sequence (across the restart): each event's first publish, in order
    const got = listenStream(nc, restartStream);
    try {
      const sink = { transport: 'nats', url: users.url, config: { subjectPrefix: restartPrefix, jetstream: true } };
      const run = await orderedThrough(env, sink, got, {
        type: 'chat.created',
        total: 300,
        at: 0,
        afterArrivals: 40,
        disrupt: () => users.restart({ kill: true }),
      });
      expect(run.duplicates).toBe(0);
      process.stdout.write(
        `nats sink, server SIGKILLed and restarted mid-stream: ${run.total} events in the stream in ${run.tookMs} ms, in order per chat, ${run.failedAttempts} failed attempts retried\n`,
      );
    } finally {
      await got.close();
    }
  }, 90_000);

  it('shows a wrong password in the delivery log, and a JetStream sink without a stream as a failure', async () => {
    const [noStream] = await refusedAndDelivered(
      env,
      {
        bad: { transport: 'nats', url: `nats://127.0.0.1:${guardedPort}`, credentials: { username: 'crm', password: 'wrong-password' } },
        good: { transport: 'nats', url: `nats://127.0.0.1:${guardedPort}`, credentials: { username: 'crm', password: 'right-password' } },
        more: [{ transport: 'nats', url: users.url, config: { subjectPrefix: 'nobody.listens', jetstream: true } }],
      },
      /^nats: .*AUTHORIZATION_VIOLATION|Authorization Violation/i,
    );
    expect((await failedAttempt(env.api, noStream)).error).toMatch(/^nats: /);
  });
});
