import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { client, until } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/**
 * Failure cases with the real sandbox connector: a queue process killed (SIGKILL) after it submitted
 * a message but before it recorded the result, and a purge racing a busy worker.
 */
describe('send queue under failure', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let phoneId: string;

  beforeAll(async () => {
    stack = await startStack(
      {
        SESSION_SCAN_MS: '200',
        QUEUE_PHONE_SCAN_MS: '200',
        QUEUE_JOB_LOCK_MS: '1500',
        QUEUE_SEND_INTERVAL_MS: '1',
        QUEUE_SEND_JITTER_MS: '0',
        QUEUE_FAULT_HOLD_AFTER_SEND_MS: '60000',
      },
      { services: ['phones', 'queue'] },
    );
    const org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    ({ phoneId } = await connectedSandboxPhone(api));
  }, 120_000);

  afterAll(() => stack?.stop());

  it('a worker killed mid-job: the job is retried by another process and the message exists once, same unique_id', async () => {
    const chat = randomDigits();
    const sent = await api.post('/message/send', { chat_id: chat, message: 'exactly once' }, { 'x-phone': phoneId });
    const page = await until(
      () => api.get(`/chats/${chat}/messages`, { 'x-phone': phoneId }),
      (r) => r.body?.count === 1,
      15_000,
      'submitted',
    );
    const uniqueId = page.body.messages[0].unique_id;
    await stack.apps.queue.kill(); // held after submitting: the job is active, its result not recorded
    await stack.startService('queue', { QUEUE_FAULT_HOLD_AFTER_SEND_MS: '0' });
    const job = await until(
      () => api.get(`/queue/jobs?queue_id=${sent.body.queue_id}`, { 'x-phone': phoneId }),
      (r) => r.body?.[0]?.status === 'completed',
      20_000,
      'retried job completed',
    );
    expect(job.body[0].unique_id).toBe(uniqueId);
    expect(job.body[0].attemptsStarted).toBeGreaterThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 500));
    const after = await api.get(`/chats/${chat}/messages`, { 'x-phone': phoneId });
    expect(after.body.count).toBe(1);
    expect(after.body.messages[0]).toMatchObject({ unique_id: uniqueId, sent_message_id: sent.body.queue_id });
  }, 60_000);

  it('purge racing a busy worker: after the answer, no purged job reaches the network', async () => {
    const chats = Array.from({ length: 200 }, () => randomDigits());
    const b = await api.post('/message/broadcast', { chat_ids: chats, message: 'race' }, { 'x-phone': phoneId });
    expect(b.status).toBe(200);
    await until(
      () => api.get(`/queue/broadcast?broadcast_id=${b.body.broadcast_id}`, { 'x-phone': phoneId }),
      (r) => r.body?.completed >= 5,
      15_000,
      'worker busy',
    );
    const purged = await api.post('/message/queues/purge', {}, { 'x-phone': phoneId });
    expect(purged.body).toEqual({ purged: true, mode: 'all' });
    const atAnswer = (await api.get(`/queue/broadcast?broadcast_id=${b.body.broadcast_id}`, { 'x-phone': phoneId })).body;
    await new Promise((r) => setTimeout(r, 1_500));
    const later = (await api.get(`/queue/broadcast?broadcast_id=${b.body.broadcast_id}`, { 'x-phone': phoneId })).body;
    // Only a job already submitted when the purge ran may still complete (at most one: concurrency 1).
    expect(later.completed - atAnswer.completed).toBeLessThanOrEqual(atAnswer.active);
    expect(later.completed).toBeLessThan(200);
    expect(later.pending + later.active).toBe(0);
    expect(later.completed + later.purged + later.failed).toBe(200);
    // The network has exactly the completed ones.
    const sentChats = await stack.prisma.message.count({ where: { phone_id: phoneId, body: 'race', from_me: true } });
    expect(sentChats).toBe(later.completed);
  }, 60_000);
});
