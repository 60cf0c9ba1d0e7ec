import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
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
  private client?: Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;
  private held: string | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly logger: Logger,
    private readonly retryMs = 1_000,
  ) {}

  /** The id claims are tagged with, or null while the liveness lock is not held. */
  get id(): string | null {
    return this.held;
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'automation-worker' });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      const id = randomUUID();
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [`${WORKER_LOCK_PREFIX}${id}`]);
      if (this.stopped) return void (await client.end().catch(() => undefined));
      this.client = client;
      this.held = id;
    } catch (err) {
      this.lost(client, err);
    }
  }

  private lost(client: Client, err?: unknown): void {
    if (client !== this.client && this.client) return;
    this.held = null;
    this.client = undefined;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (this.stopped || this.retry) return;
    if (err) this.logger.warn({ err }, 'workflow executor liveness lock lost; claims wait for their lease until it is back');
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) void this.connect();
    }, this.retryMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.held = null;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
