import { z } from 'zod';
import { envBool, parseConfig } from '@mapi/platform';

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(min).max(max).default(def));
const bool = envBool;

/** Configuration of the queue service and its send workers (docs/services/queue.md). */
export const QueueConfigSchema = z.object({
  /** Least time between two submissions of one phone (pacing, across all replicas). */
  QUEUE_SEND_INTERVAL_MS: int(1_000),
  /** Up to this much more, at random, before each submission (numbers sending at machine-regular intervals get banned). */
  QUEUE_SEND_JITTER_MS: int(1_000),
  /** A Cloud API phone's pace instead of the two above: messages a second (Meta's default throughput for a number, 80), no jitter. */
  CLOUD_API_SEND_RATE_PER_S: int(80, 1, 1_000),
  /** A Cloud API phone's sends in flight at once, never two to one chat (linked devices: always 1). */
  CLOUD_API_SEND_CONCURRENCY: int(8, 1, 64),
  /** Attempts of a job whose submission fails with an error (a disconnected phone does not use attempts). */
  QUEUE_SEND_ATTEMPTS: int(5, 1, 100),
  /** First retry delay after a failed attempt; doubles each time. */
  QUEUE_RETRY_BACKOFF_MS: int(2_000),
  /** How long a job waits for a disconnected or unreachable phone before it is failed. */
  QUEUE_MAX_WAIT_MS: int(24 * 3_600_000, 1_000),
  /** Pause of a phone's queue after its phone answered disconnected/unreachable. */
  QUEUE_PHONE_RETRY_MS: int(5_000, 100),
  /** Run send workers in this process (the API part always runs). */
  QUEUE_WORKER_ENABLED: bool(true),
  /** How often a worker process looks for phones with queues it does not serve yet. */
  QUEUE_PHONE_SCAN_MS: int(2_000, 100),
  /** Close a phone's send worker after its queue has been empty this long (frees its blocking Redis connection); 0: never. */
  QUEUE_WORKER_IDLE_MS: int(300_000),
  /** Lock of a running job; a job whose worker died is taken up again after about this long. */
  QUEUE_JOB_LOCK_MS: int(30_000, 1_000),
  /** Finished jobs are kept this long for GET /queue/jobs. */
  QUEUE_KEEP_FINISHED_S: int(7 * 86_400, 60),
  /** How long an Idempotency-Key's first answer is kept. */
  QUEUE_IDEMPOTENCY_TTL_S: int(86_400, 60),
  /** Timeout of one command to the phone's session. */
  QUEUE_SESSION_TIMEOUT_MS: int(10_000, 100),
  /** Fault injection for tests only: hold a job this long after its submission (0 in production). */
  QUEUE_FAULT_HOLD_AFTER_SEND_MS: int(0),
});
export type QueueConfig = z.infer<typeof QueueConfigSchema>;

export function loadQueueConfig(env: NodeJS.ProcessEnv = process.env): QueueConfig {
  return parseConfig(QueueConfigSchema, env);
}
