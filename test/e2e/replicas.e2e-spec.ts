import { AppProcess, createMessages, createOrg, createPhone, createToken, freePort, randomDigits } from '@mapi/testing';
import { getJson, startStack, type Stack } from './support/stack';

/** Replicas of a service share its subjects (NATS queue group); losing one does not fail requests. */
describe('chats replicas behind the gateway', () => {
  let stack: Stack;
  let second: AppProcess;
  const w: Record<string, any> = {};

  beforeAll(async () => {
    // long enough for a chats process to start under CI load
    stack = await startStack({ RPC_UNAVAILABLE_RETRY_MS: '20000' });
    const healthPort = await freePort();
    second = AppProcess.start('chats', { ...stack.env, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' });
    await second.waitReady(`http://127.0.0.1:${healthPort}/health/ready`);
    w.org = await createOrg(stack.prisma);
    w.phone = await createPhone(stack.prisma, w.org.id);
    w.chat = `${randomDigits()}@c.us`;
    await createMessages(stack.prisma, w.org, w.phone, [{ chatId: w.chat }, { chatId: w.chat }]);
    w.token = (await createToken(stack.prisma, w.org.id)).token;
  }, 120_000);

  afterAll(async () => {
    await second?.stop();
    await stack?.stop();
  });

  const list = () => getJson(`${stack.baseUrl}/v1/chats/${w.chat}/messages`, { Authorization: `Bearer ${w.token}` });
  const served = (p: AppProcess) => p.lines.filter((l) => l.includes('"msg":"rpc"') && l.includes('chats.v1.messages.list')).length;

  it('spreads requests over both replicas', async () => {
    const before = [served(stack.chats), served(second)];
    for (let i = 0; i < 40; i++) expect((await list()).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect(served(stack.chats) - before[0]).toBeGreaterThan(0);
    expect(served(second) - before[1]).toBeGreaterThan(0);
  });

  it('keeps answering when one replica is killed', async () => {
    await second.kill();
    const results = await Promise.all(Array.from({ length: 10 }, list));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.every((r) => r.body.count === 2)).toBe(true);
  });

  it('stops gracefully on SIGTERM (exit code 0); requests made while no replica runs wait for the next one', async () => {
    const code = await stack.chats.stop('SIGTERM');
    expect(code).toBe(0);
    // the only replica is gone: these requests reach nobody and are retried by the gateway
    const waiting = Promise.all(Array.from({ length: 5 }, list));
    await new Promise((r) => setTimeout(r, 500));
    const restarted = await stack.startService('chats');
    const results = await waiting;
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(results.every((r) => r.body.count === 2)).toBe(true);
    await restarted.stop();
  }, 60_000);
});
