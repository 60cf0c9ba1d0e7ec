import { streamNames } from '@mapi/events';
import { createOrg, createToken, randomDigits, testEnv } from '@mapi/testing';
import { StorageType, connect, type NatsConnection } from 'nats';
import { client, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';
const { startReceiver } = require('../../bench/webhooks/receiver.js');

jest.setTimeout(180_000);

/**
 * Issue 32 item 4: the stream consumers of started apps come back by themselves. The EVENTS stream
 * is deleted on the NATS server (as a nats-server restarted on an empty store loses it) and, for a
 * while, another stream holds its subjects so that it cannot be re-created: the webhooks
 * dispatcher's intake and the gateway's realtime reader go down, their apps unready and their
 * gauges 0; once that stream goes, they re-create EVENTS, become ready without a restart, and
 * every event after the break reaches the webhook.
 */
describe('stream consumers of started apps across a lost stream', () => {
  let stack: Stack;
  let nc: NatsConnection;
  let receiver: any;
  let api: ReturnType<typeof client>;
  let phoneId: string;
  const delivered = () =>
    new Set(receiver.requests.filter((r: any) => r.path === '/hook').map((r: any) => JSON.parse(r.body).data?.body as string));
  const ready = async (url: string) => {
    const res = await fetch(`${url}/health/ready`);
    return { status: res.status, body: (await res.json()) as any };
  };
  const gauge = async (url: string, consumer: string) => {
    const text = await (await fetch(`${url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith('mapi_stream_consumer_up{') && l.includes(`consumer="${consumer}"`));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  const send = async (bodies: string[]) => {
    for (const body of bodies)
      expect((await api.post('/sandbox/messages', { chat_id: randomDigits(), body }, { 'x-phone': phoneId })).status).toBe(200);
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    stack = await startStack(
      { WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32', WEBHOOK_POLL_INTERVAL_MS: '50', SESSION_SCAN_MS: '200' },
      { services: ['phones', 'webhooks-dispatcher'] },
    );
    nc = await connect({ servers: testEnv.natsUrl() });
    const org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    expect((await api.post('/webhooks', { hookUrl: `${receiver.url}/hook`, integrationName: ['message.created'] })).status).toBe(201);
    phoneId = (await connectedSandboxPhone(api)).phoneId;
  }, 120_000);

  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
    await receiver?.close();
  });

  it('goes unready while a consumer cannot consume, comes back by itself, and loses nothing published after', async () => {
    await send(['before']);
    await until(
      async () => delivered(),
      (d) => d.has('before'),
      15_000,
      'the event before the break',
    );
    const dispatcher = stack.healthUrl(stack.apps['webhooks-dispatcher']);
    const gateway = stack.healthUrl(stack.gateway);
    expect(await gauge(dispatcher, 'webhooks-dispatcher')).toBe(1);

    const jsm = await nc.jetstreamManager();
    const events = streamNames(stack.env.NAMESPACE).events;
    await jsm.streams.delete(events);
    const blocker = `${events}_BLOCKER`;
    await jsm.streams.add({ name: blocker, subjects: [`${stack.env.NAMESPACE}.events.>`], storage: StorageType.Memory });
    try {
      // A pull notices its stream is gone at once when the server says so, else at its second missed
      // idle heartbeat (up to ~30 s after the deletion): the wait leaves room for the slow way.
      const down = await until(
        () => ready(dispatcher),
        (r) => r.status === 503,
        60_000,
        'the dispatcher unready',
      );
      expect(down.body.checks.consumers).toMatchObject({ status: 'down', error: expect.stringMatching(/^webhooks-dispatcher down: /) });
      expect(down.body.checks.nats.status).toBe('up');
      expect(
        (
          await until(
            () => ready(gateway),
            (r) => r.status === 503,
            60_000,
            'the gateway unready',
          )
        ).body.checks.consumers.error,
      ).toMatch(/^realtime down: /);
      expect(await gauge(dispatcher, 'webhooks-dispatcher')).toBe(0);
      expect((await fetch(`${dispatcher}/health/live`)).status).toBe(200);
    } finally {
      await jsm.streams.delete(blocker);
    }

    await until(
      () => ready(dispatcher),
      (r) => r.status === 200,
      30_000,
      'the dispatcher ready again',
    );
    await until(
      () => ready(gateway),
      (r) => r.status === 200,
      30_000,
      'the gateway ready again',
    );
    expect(await gauge(dispatcher, 'webhooks-dispatcher')).toBe(1);
    expect(await gauge(gateway, 'realtime')).toBe(1);
    const after = Array.from({ length: 20 }, (_, i) => `after ${i}`);
    await send(after);
    await until(
      async () => delivered(),
      (d) => after.every((b) => d.has(b)),
      20_000,
      'every event after the break',
    );
    expect(stack.apps['webhooks-dispatcher'].lines.filter((l) => l.includes('"msg":"stream consumer down; restarting it"'))).toHaveLength(
      1,
    );
  });
});
