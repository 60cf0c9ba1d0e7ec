import type { PrismaClient } from '@mapi/db';
import { bullConnection, createLogger } from '@mapi/platform';
import { Redis } from 'ioredis';
import { randomBytes, randomUUID } from 'node:crypto';
import { QueuePurger } from '../queues/queue-purger';
import { SendQueues } from '../queues/send-queues';
import { SendRecord } from '../record/send-record';
import { SendProcessor, type SendProcessorOptions, type SessionPort } from '../worker/send-processor';
import { SendWorkers, type SendWorkersOptions } from '../worker/send-workers';
import { FakeSession } from '../worker/testing/fake-session';

/** What the harness needs of @mapi/testing's testEnv (which only test files may import): pass testEnv itself. */
export interface HarnessEnv {
  redisUrl(): string;
  namespace(): string;
}

/** What the harness needs of @mapi/testing's useTestDatabase: its Prisma client, set by the time the tests run. */
interface TestDatabase {
  prisma: PrismaClient;
}

export interface SendHarnessOptions {
  /** In the Redis namespace, so a spec's keys are its own (`qp`: `mapi-test-qp-1a2b3c`). */
  tag: string;
  /** How many phones (`phone-…` ids, none of them with a queue yet); 1 unless told. */
  phones?: number;
  /** A fresh Redis connection, namespace, queues, session and phones for each test, instead of one set for the describe. */
  each?: boolean;
  /** The jobs' record in this test database (send_jobs); without it, Redis alone. */
  db?: TestDatabase;
}

const randomSuffix = (bytes: number) => randomBytes(bytes).toString('hex');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds; throws, naming `what`, after `ms`. */
export async function until(check: () => Promise<boolean> | boolean, ms = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/**
 * The send path's integration harness, called inside a describe: real Redis and BullMQ send queues in
 * a namespace of the spec's own, a fake phone session (it records each send), phones, an organization,
 * and send workers started on demand. After the tests (or each test, with `each`): the workers stopped,
 * the phones' queues and every key of the namespace deleted, the connections closed.
 */
export function sendHarness(env: HarnessEnv, options: SendHarnessOptions) {
  const logger = createLogger('queue-test', 'silent');
  const org = randomUUID();
  const running: SendWorkers[] = [];
  const names = () => ({
    namespace: `${env.namespace()}-${options.tag}-${randomSuffix(3)}`,
    phones: Array.from({ length: options.phones ?? 1 }, () => `phone-${randomSuffix(6)}`),
  });
  // Set in the before hook (the names also at once: a describe may build request contexts from them).
  const state = {
    ...names(),
    redis: undefined as unknown as Redis,
    queues: undefined as unknown as SendQueues,
    session: new FakeSession(),
  };
  const setUp = () => {
    if (options.each) Object.assign(state, names(), { session: new FakeSession() });
    state.redis = new Redis(env.redisUrl(), { maxRetriesPerRequest: null });
    state.queues = new SendQueues(state.redis, {
      namespace: state.namespace,
      attempts: 3,
      backoffMs: 50,
      keepFinishedSeconds: 600,
      ...(options.db ? { record: new SendRecord(options.db.prisma) } : {}),
    });
  };
  const stopWorkers = async () => void (await Promise.all(running.splice(0).map((w) => w.stop())));
  const tearDown = async () => {
    await stopWorkers();
    for (const phone of state.phones)
      await state.queues
        .queue(phone)
        .obliterate({ force: true })
        .catch(() => undefined);
    const own = await state.redis.keys(`${state.namespace}:*`);
    if (own.length) await state.redis.del(...own);
    await state.queues.close();
    state.redis.disconnect();
  };
  if (options.each) {
    beforeEach(setUp);
    afterEach(tearDown);
  } else {
    beforeAll(setUp);
    afterAll(tearDown);
  }

  return {
    org,
    logger,
    get redis(): Redis {
      return state.redis;
    },
    get queues(): SendQueues {
      return state.queues;
    },
    get session(): FakeSession {
      return state.session;
    },
    get namespace(): string {
      return state.namespace;
    },
    get phones(): string[] {
      return state.phones;
    },
    /** The first phone. */
    get phone(): string {
      return state.phones[0];
    },
    /**
     * Starts a process's send workers on the fake session (linked-device pace of 1 ms, scans every 50 ms,
     * never idle-closing in the test's time unless told), stopped by `stopWorkers` or after the tests.
     */
    startWorkers: async (
      o: {
        processor?: Partial<SendProcessorOptions>;
        workers?: Partial<Omit<SendWorkersOptions, 'namespace' | 'connection'>>;
        /** Another session than the harness's FakeSession (a slow one, say). */
        session?: SessionPort;
      } = {},
    ) => {
      const processor = new SendProcessor(
        state.queues,
        o.session ?? state.session,
        { jitterMs: 0, phoneRetryMs: 200, maxWaitMs: 60_000, holdAfterSendMs: 0, ...o.processor },
        logger,
      );
      const workers = new SendWorkers(
        state.queues,
        processor,
        new QueuePurger(state.queues),
        {
          namespace: state.namespace,
          connection: bullConnection(env.redisUrl()),
          intervalMs: 1,
          lockMs: 5_000,
          scanMs: 50,
          idleMs: 60_000,
          ...o.workers,
        },
        logger,
      );
      running.push(workers);
      await workers.start();
      return workers;
    },
    stopWorkers,
    /** Queues `n` text jobs of the organization to `chats` chats in turn; their ids in the order they were queued. */
    add: async (phoneId: string, n: number, chats = 1) => {
      const jobs = Array.from({ length: n }, (_, i) => ({
        id: randomUUID(),
        chat_id: `1555000${i % chats}@c.us`,
        content: { text: `m${i}` },
      }));
      await state.queues.add(org, phoneId, jobs, null);
      return jobs.map((j) => j.id);
    },
    /** The ids `add` queued, per chat in queue order (chat ids as `add` makes them). */
    byChat: (ids: string[], chats = 1) => {
      const out = new Map<string, string[]>();
      ids.forEach((id, i) => out.set(`1555000${i % chats}@c.us`, [...(out.get(`1555000${i % chats}@c.us`) ?? []), id]));
      return out;
    },
    /** The sends the session saw for a phone, in the order it saw them. */
    sentBy: (phoneId: string) => state.session.sends.filter((s) => s.phone === phoneId),
    completed: async (phoneId: string) => (await state.queues.queue(phoneId).getJobCounts('completed')).completed,
  };
}
