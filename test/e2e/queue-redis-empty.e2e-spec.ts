import { PrivateRedis, randomDigits } from '@mapi/testing';
import { client, until } from './support/http';
import { orgWithSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

jest.setTimeout(120_000);

/**
 * Issue 32, Redis restarted empty under a running broadcast (docs/decisions/0077): Redis is the
 * queues' working copy, Postgres their record. The stack runs on a redis-server of the test's own;
 * it is restarted with no data while the broadcast is being sent, and with no app restarted by hand
 * every accepted message reaches the network exactly once.
 */
describe('send queue: Redis comes back empty, no accepted send is lost or sent twice', () => {
  let redis: PrivateRedis;
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let phoneId: string;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    stack = await startStack(
      {
        REDIS_URL: redis.url,
        SESSION_SCAN_MS: '200',
        QUEUE_PHONE_SCAN_MS: '200',
        QUEUE_SEND_INTERVAL_MS: '150',
        QUEUE_SEND_JITTER_MS: '0',
      },
      { services: ['phones', 'queue'] },
    );
    ({ api, phoneId } = await orgWithSandboxPhone(stack));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await redis?.destroy();
  });

  it('a broadcast half sent when Redis restarts empty: every message sent once', async () => {
    const chats = Array.from({ length: 40 }, () => randomDigits());
    const b = await api.post('/message/broadcast', { chat_ids: chats, message: 'survives an empty redis' }, { 'x-phone': phoneId });
    expect(b.status).toBe(200);
    const sent = () => stack.prisma.message.count({ where: { phone_id: phoneId, body: 'survives an empty redis', from_me: true } });
    await until(sent, (n) => n >= 5, 20_000, 'the broadcast under way');
    await redis.restart({ empty: true, kill: true });
    const atLoss = await sent();
    expect(atLoss).toBeLessThan(chats.length);

    await until(sent, (n) => n >= chats.length, 60_000, 'every message after the loss');
    await new Promise((r) => setTimeout(r, 1_000)); // a second copy would have shown by now
    const rows = await stack.prisma.message.groupBy({
      by: ['chat_id'],
      where: { phone_id: phoneId, body: 'survives an empty redis', from_me: true },
      _count: true,
    });
    expect(rows).toHaveLength(chats.length);
    expect(rows.filter((r) => r._count !== 1)).toEqual([]);
    // The queue said what happened, once.
    expect(stack.apps.queue.lines.filter((l) => l.includes('queued again from the record'))).toHaveLength(1);
    // New sends go on as before.
    const after = await api.post('/message/send', { chat_id: chats[0], message: 'after the loss' }, { 'x-phone': phoneId });
    expect(after.status).toBe(200);
    await until(
      () => stack.prisma.message.count({ where: { phone_id: phoneId, body: 'after the loss' } }),
      (n) => n === 1,
      20_000,
      'a send after the loss',
    );
  });
});
