import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { freePort, randomSuffix } from '@mapi/testing';
import { arrival, emit, emittedIds, expectEvery, failedAttempt, outOfOrder, sinkStack, type Arrival } from './support/event-sinks';
import { until } from './support/http';

/**
 * MQTT sinks against the machine's Mosquitto (127.0.0.1:1883, anonymous): topic `<prefix>/<event name>`
 * at QoS 1, every event arriving while the dispatcher is SIGKILLed mid-stream; and against a Mosquitto
 * of the test's own that requires a password: a wrong one is a failed attempt in the delivery log.
 */
jest.setTimeout(240_000);

describe('event sinks: MQTT (Mosquitto)', () => {
  let env: Awaited<ReturnType<typeof sinkStack>>;
  let sub: MqttClient;
  const prefix = `mapi-test-${randomSuffix(4)}`;
  const arrivals: Arrival[] = [];
  const topics = new Set<string>();
  let guarded: ChildProcess | undefined;
  let guardedPort = 0;
  const dir = mkdtempSync(join(tmpdir(), 'mapi-mosquitto-'));

  beforeAll(async () => {
    sub = await connectAsync('mqtt://127.0.0.1:1883', { clientId: `${prefix}-sub`, clean: true });
    sub.on('message', (topic, payload) => {
      topics.add(topic);
      arrivals.push(arrival(payload.toString()));
    });
    await sub.subscribeAsync(`${prefix}/#`, { qos: 1 });
    // the broker with a password file: "the user's" broker whose credentials we get wrong
    guardedPort = await freePort();
    execFileSync('mosquitto_passwd', ['-b', '-c', join(dir, 'passwords'), 'crm', 'right-password']);
    writeFileSync(join(dir, 'conf'), `listener ${guardedPort} 127.0.0.1\nallow_anonymous false\npassword_file ${join(dir, 'passwords')}\n`);
    // run as root, mosquitto drops to its own user, which must be able to read the files
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'passwords'), 0o644);
    guarded = spawn('mosquitto', ['-c', join(dir, 'conf')], { stdio: 'ignore' });
    await until(
      () =>
        new Promise<boolean>((resolve) => {
          const s = tcpConnect(guardedPort, '127.0.0.1', () => resolve(!!s.end()));
          s.on('error', () => resolve(false));
        }),
      (up) => up,
      10_000,
      'the password-protected mosquitto listening',
    );
    env = await sinkStack();
  }, 120_000);

  afterAll(async () => {
    await sub?.endAsync();
    guarded?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    await env?.stack.stop();
  });

  it('delivers every event to <prefix>/<event name> at QoS 1 while the dispatcher is SIGKILLed mid-stream', async () => {
    const created = await env.api.post('/event-sinks', {
      transport: 'mqtt',
      url: 'mqtt://127.0.0.1:1883',
      events: 'message.created',
      config: { topicPrefix: prefix, protocolVersion: 5 },
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
    expect([...topics]).toEqual([`${prefix}/message.created`]);
    process.stdout.write(
      `mqtt sink: ${total} events, ${kills} kills, ${arrivals.length - total} duplicates, ${outOfOrder(arrivals)} out of order per chat\n`,
    );
  });

  it('shows a wrong password in the delivery log and keeps delivering to the other sink', async () => {
    const bad = await env.api.post('/event-sinks', {
      transport: 'mqtt',
      url: `mqtt://127.0.0.1:${guardedPort}`,
      events: 'chat.created',
      credentials: { username: 'crm', password: 'wrong-password' },
    });
    const good = await env.api.post('/event-sinks', {
      transport: 'mqtt',
      url: `mqtt://127.0.0.1:${guardedPort}`,
      events: 'chat.created',
      credentials: { username: 'crm', password: 'right-password' },
    });
    await emit(env.stack, env.orgId, 1, { type: 'chat.created' });
    const refused = await failedAttempt(env.api, bad.body[0].id);
    expect(refused).toMatchObject({ success: false, status_code: null });
    expect(refused.error).toMatch(/^mqtt: .*(Not authorized|Bad username or password)/i);
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
