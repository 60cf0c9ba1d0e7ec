import { testEnv } from '@mapi/testing';
import { sendHarness, until } from '../testing/send-harness';
import { PhonePaces } from './phone-pace';
import { SlowSession } from './testing/slow-session';

/**
 * A Cloud API phone with several sends in flight (CLOUD_API_SEND_CONCURRENCY), against a session whose
 * every send takes DELAY_MS (a Graph API round trip): N sends to N chats finish in well under N × DELAY_MS,
 * while two sends to one chat are never in flight together and go in queue order, also when Meta
 * throttles sends in flight (they go back, in order, without using an attempt). A linked device still
 * sends one at a time. Real Redis and BullMQ workers.
 */
describe('SendWorkers: a Cloud API phone sends several at once, one per chat', () => {
  const h = sendHarness(testEnv, { tag: 'qc', phones: 2, each: true });
  const K = 8;
  const cloud = () => h.phones[0];
  const sandbox = () => h.phones[1];

  const startWorkers = (session: SlowSession, concurrency = K) =>
    h.startWorkers({
      session,
      processor: { phoneRetryMs: 200, throttleBackoffMs: 150 },
      workers: {
        intervalMs: 10,
        idleMs: 0,
        paces: new PhonePaces({ intervalMs: 10, cloudApiRatePerSecond: 80, cloudApiConcurrency: concurrency }, async (phoneId) =>
          phoneId === cloud() ? 'cloud_api' : 'sandbox',
        ),
      },
    });
  /** `n` jobs to `chats` chats in turn: the ids queued, and per chat in queue order. */
  const add = async (phoneId: string, n: number, chats: number) => {
    const ids = await h.add(phoneId, n, chats);
    return { ids, byChat: h.byChat(ids, chats) };
  };
  const completed = (phoneId: string) => h.completed(phoneId);

  it('sends N messages to N chats in well under N round trips, at most K in flight', async () => {
    const N = 40;
    const DELAY_MS = 150;
    const session = new SlowSession(DELAY_MS);
    const { ids } = await add(cloud(), N, N);
    await startWorkers(session);
    await until(async () => (await completed(cloud())) === N, 30_000, `${N} sends`);
    const starts = session.sends.map((s) => s.started);
    const elapsed = Math.max(...session.sends.map((s) => s.ended)) - Math.min(...starts);
    // one at a time it takes N × 150 = 6 s; K = 8 at once ≈ 0.75 s (80/s would allow 0.5 s)
    expect(elapsed).toBeLessThan((N * DELAY_MS) / 3);
    expect(session.maxInFlight.get(cloud())).toBeGreaterThan(1);
    expect(session.maxInFlight.get(cloud())).toBeLessThanOrEqual(K);
    expect([...session.sentIds.keys()].sort()).toEqual([...ids].sort()); // each once
    expect(session.sends).toHaveLength(N);
  }, 60_000);

  it('never has two sends to one chat in flight together, and sends each chat in queue order', async () => {
    const DELAY_MS = 40;
    const session = new SlowSession(DELAY_MS);
    const { byChat } = await add(cloud(), 90, 3); // three chats, interleaved
    await startWorkers(session);
    await until(async () => (await completed(cloud())) === 90, 30_000, '90 sends');
    expect(session.maxPerChat).toBe(1);
    expect(session.maxInFlight.get(cloud())).toBeGreaterThan(1); // the three chats went side by side
    expect(session.byChat(cloud())).toEqual(byChat);
    for (const chat of byChat.keys()) {
      const sends = session.sends.filter((s) => s.chat === chat);
      for (let i = 1; i < sends.length; i++) expect(sends[i].started).toBeGreaterThanOrEqual(sends[i - 1].ended);
    }
  }, 60_000);

  it('puts sends throttled in flight back in queue order, behind them their chats’ later ones, without using attempts', async () => {
    const session = new SlowSession(60);
    session.throttle(10); // Meta throttles the first sends in flight
    const { ids, byChat } = await add(cloud(), 40, 2); // two chats: each has several jobs in flight together
    await startWorkers(session);
    await until(async () => (await completed(cloud())) === 40, 30_000, 'sent after the throttling');
    expect(session.answers.length).toBeGreaterThan(0);
    expect(session.maxPerChat).toBe(1);
    expect(session.byChat(cloud())).toEqual(byChat); // nothing overtook a throttled send of its chat
    expect(session.sends).toHaveLength(40); // each once
    for (const id of ids) {
      const job = await h.queues.queue(cloud()).getJob(id);
      expect(job?.attemptsMade).toBe(1);
      expect(job?.failedReason ?? null).toBeNull();
    }
  }, 60_000);

  it('keeps a linked device at one send at a time whatever the Cloud API setting', async () => {
    const session = new SlowSession(40);
    const { ids } = await add(sandbox(), 6, 6);
    await startWorkers(session, 16);
    await until(async () => (await completed(sandbox())) === 6, 20_000, 'the sandbox sends');
    expect(session.maxInFlight.get(sandbox())).toBe(1);
    expect(session.sends.map((s) => s.id)).toEqual(ids);
  }, 30_000);
});
