import { randomUUID } from 'node:crypto';
import { SessionConnection } from '@mapi/events';
import type { Logger } from 'pino';

/** The advisory-lock key of an executor id, as SQL computes it from `claimed_by` (RunStore.claim). */
export const WORKER_LOCK_PREFIX = 'automation-worker|';

/**
 * An executor's liveness, for taking over its claims at once when it dies: on a connection of its own
 * (direct to Postgres, not through a transaction pooler: a session lock needs the session), it holds
 * the session advisory lock of a fresh worker id. Claims are tagged with that id; another executor
 * whose pg_try_advisory_xact_lock on it succeeds knows the session is gone (the process was killed,
 * its connection closed) and claims the steps without waiting for their lease. `id` is null while
 * the lock is not held (connecting, connection lost): claims are then untagged and wait for the
 * lease, as before. A lost connection takes a new id when it comes back, so a claim made under the old
 * one is never thought alive again.
 */
export class WorkerLiveness {
  private readonly session: SessionConnection<string>;
  private held: string | null = null;

  constructor(databaseUrl: string, logger: Logger, retryMs = 1_000) {
    this.session = new SessionConnection<string>({
      databaseUrl,
      applicationName: 'automation-worker',
      logger,
      retryMs,
      open: async (client) => {
        const id = randomUUID();
        await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [`${WORKER_LOCK_PREFIX}${id}`]);
        return id;
      },
      ready: (id) => (this.held = id),
      lost: () => (this.held = null),
      lostMessage: 'workflow executor liveness lock lost; claims wait for their lease until it is back',
    });
  }

  /** The id claims are tagged with, or null while the liveness lock is not held. */
  get id(): string | null {
    return this.held;
  }

  start(): Promise<void> {
    return this.session.start();
  }

  stop(): Promise<void> {
    return this.session.stop();
  }
}
