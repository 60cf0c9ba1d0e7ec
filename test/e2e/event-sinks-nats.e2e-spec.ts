import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type NatsConnection } from 'nats';
import { PrivateNats, freePort, randomSuffix } from '@mapi/testing';
import { arrival, emit, emittedIds, expectEvery, failedAttempt, outOfOrder, sinkStack, type Arrival } from './support/event-sinks';
import { until } from './support/http';

/**
 * NATS sinks against nats-servers the test starts as "the user's" (never the project's own): a JetStream
 * publish per event on `<prefix>.<event name>` with Nats-Msg-Id = event id, so a dispatcher SIGKILLed
 * mid-stream loses none and its redeliveries leave exactly one stream message per event; a server that
 * requires a password shows a wrong one in the delivery log.
 */
jest.setTimeout(240_000);

describe('event sinks: NATS (JetStream)', () => {
  let env: Awaited<ReturnType<typeof sinkStack>>;
  let users: PrivateNats;
  let nc: NatsConnection;
  let guarded: ChildProcess | undefined;
  let guardedPort = 0;
  const prefix = `mapi.test${randomSuffix(4)}`;
  const stream = `SINK_${randomSuffix(4)}`;
  const arrivals: Arrival[] = [];
  const subjects = new Set<string>();

  beforeAll(async () => {
    users = await PrivateNats.start();
    nc = await connect({ servers: users.url });
    const jsm = await nc.jetstreamManager();
    await jsm.streams.add({ name: stream, subjects: [`${prefix}.>`], duplicate_window: 120_000_000_000 });
    const sub = nc.subscribe(`${prefix}.>`);
    void (async () => {
      for await (const m of sub) {
        subjects.add(m.subject);
        arrivals.push(arrival(new TextDecoder().decode(m.data)));
      }
    })();
    guardedPort = await freePort();
    guarded = spawn(
      process.env.NATS_SERVER_BIN ?? 'nats-server',
      ['-a', '127.0.0.1', '-p', String(guardedPort), '--user', 'crm', '--pass', 'right-password'],
      {
        stdio: 'ignore',
      },
    );
    env = await sinkStack();
  }, 120_000);

  afterAll(async () => {
    await nc?.close();
    guarded?.kill('SIGKILL');
    await users?.destroy();
    await env?.stack.stop();
  });

  it('publishes every event to the stream once (Nats-Msg-Id) while the dispatcher is SIGKILLed mid-stream', async () => {
    const created = await env.api.post('/event-sinks', {
      transport: 'nats',
      url: users.url,
      events: 'message.created',
      config: { subjectPrefix: prefix, jetstream: true },
    });
    expect(created.status).toBe(201);
    const total = 600;
    let kills = 0;
    await emit(env.stack, env.orgId, total, {
      afterBatch: async (i) => {
        if (i === 4 || i === 9) {
          await env.killDispatcher();
          kills++;
        }
      },
    });
    const emitted = await emittedIds(env.stack, env.orgId);
    expect(emitted.size).toBe(total);
    await expectEvery(arrivals, emitted);
    expect([...subjects]).toEqual([`${prefix}.message.created`]);
    const info = await (await nc.jetstreamManager()).streams.info(stream);
    expect(info.state.messages).toBe(total);
    process.stdout.write(
      `nats sink: ${total} events, ${kills} kills, ${arrivals.length - total} duplicate publishes (dropped by the stream), ${outOfOrder(arrivals)} out of order per chat\n`,
    );
  });

  it("loses none when the user's nats-server is SIGKILLed and restarted mid-stream (JetStream store kept)", async () => {
    const restartPrefix = `${prefix}r`;
    const restartStream = `${stream}_R`;
    await (
      await nc.jetstreamManager()
    ).streams.add({ name: restartStream, subjects: [`${restartPrefix}.>`], duplicate_window: 120_000_000_000 });
    const created = await env.api.post('/event-sinks', {
      transport: 'nats',
      url: users.url,
      events: 'chat.created',
      config: { subjectPrefix: restartPrefix, jetstream: true },
    });
    expect(created.status).toBe(201);
    const total = 300;
    await emit(env.stack, env.orgId, total, {
      type: 'chat.created',
      afterBatch: async (i) => {
        if (i === 2) await users.restart({ kill: true });
      },
    });
    const messages = await until(
      async () => {
        const jsm = await nc.jetstreamManager().catch(() => null);
        return jsm ? ((await jsm.streams.info(restartStream).catch(() => null))?.state.messages ?? -1) : -1;
      },
      (n) => n >= total,
      120_000,
      'every event in the stream after the restart',
    );
    expect(messages).toBe(total);
    const log = await env.api.get(`/event-sinks/${created.body[0].id}/deliveries?limit=1000`);
    const failures = log.body.attempts.filter((a: any) => !a.success).length;
    process.stdout.write(`nats sink, server restarted mid-stream: ${total} events in the stream, ${failures} failed attempts retried\n`);
  });

  it('shows a wrong password in the delivery log, and a JetStream sink without a stream as a failure', async () => {
    const bad = await env.api.post('/event-sinks', {
      transport: 'nats',
      url: `nats://127.0.0.1:${guardedPort}`,
      events: 'chat.created',
      credentials: { username: 'crm', password: 'wrong-password' },
    });
    const good = await env.api.post('/event-sinks', {
      transport: 'nats',
      url: `nats://127.0.0.1:${guardedPort}`,
      events: 'chat.created',
      credentials: { username: 'crm', password: 'right-password' },
    });
    const noStream = await env.api.post('/event-sinks', {
      transport: 'nats',
      url: users.url,
      events: 'chat.created',
      config: { subjectPrefix: 'nobody.listens', jetstream: true },
    });
    await emit(env.stack, env.orgId, 1, { type: 'chat.created' });
    const refused = await failedAttempt(env.api, bad.body[0].id);
    expect(refused).toMatchObject({ success: false, status_code: null });
    expect(refused.error).toMatch(/^nats: .*AUTHORIZATION_VIOLATION|Authorization Violation/i);
    expect((await failedAttempt(env.api, noStream.body[0].id)).error).toMatch(/^nats: /);
    const ok = await until(
      async () => (await env.api.get(`/event-sinks/${good.body[0].id}/deliveries`)).body,
      (b) => b.count > 0,
      30_000,
      'the good sink delivered',
    );
    expect(ok.attempts[0]).toMatchObject({ success: true });
    expect(env.dispatcher.child.exitCode).toBeNull();
    expect(env.dispatcher.lines.join('\n')).not.toContain('wrong-password');
  });
});
