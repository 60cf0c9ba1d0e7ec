import { Client } from 'pg';
import type { Logger } from 'pino';

export interface SessionConnectionOptions<T> {
  databaseUrl: string;
  applicationName: string;
  logger: Logger;
  /** What makes the session useful (LISTEN, taking a session lock); its answer is handed to `ready`. */
  open(client: Client): Promise<T>;
  /** The session is set up (and the connection is not being stopped). */
  ready(value: T): void;
  /** The session is gone (an error, the server closed it); a new one is opened `retryMs` later. */
  lost(): void;
  /** Logged, with the error, when the session is lost. */
  lostMessage: string;
  logFields?: Record<string, unknown>;
  onNotification?: (payload?: string) => void;
  retryMs?: number;
}

/**
 * A Postgres connection of a process's own, for what only a session gives (LISTEN, a session advisory
 * lock): opened and set up by `start`, opened again after it is lost, closed by `stop`. Not through a
 * transaction pooler: the URL is the direct one.
 */
export class SessionConnection<T> {
  private client?: Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(private readonly options: SessionConnectionOptions<T>) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  private async connect(): Promise<void> {
    const { onNotification } = this.options;
    const client = new Client({ connectionString: this.options.databaseUrl, application_name: this.options.applicationName });
    if (onNotification) client.on('notification', (n) => onNotification(n.payload || undefined));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      const value = await this.options.open(client);
      if (this.stopped) return void (await client.end().catch(() => undefined));
      this.client = client;
      this.options.ready(value);
    } catch (err) {
      this.lost(client, err);
    }
  }

  private lost(client: Client, err?: unknown): void {
    if (client !== this.client && this.client) return;
    this.options.lost();
    this.client = undefined;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (this.stopped || this.retry) return;
    if (err) this.options.logger.warn({ err, ...this.options.logFields }, this.options.lostMessage);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) void this.connect();
    }, this.options.retryMs ?? 1_000);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.options.lost();
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
