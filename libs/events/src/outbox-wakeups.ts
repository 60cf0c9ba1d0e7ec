import { Client } from 'pg';
import type { Logger } from 'pino';

/** The channel every outbox insert notifies (INSERT_EVENTS); delivered when the writing transaction commits. */
export const OUTBOX_CHANNEL = 'mapi_outbox';

/**
 * Postgres LISTEN on the outbox channel (or another: `channel`), on a connection of its own: calls
 * `onWake` whenever a transaction that wrote events commits, in any process, with the notification's
 * payload (none for the wake-up after a (re)connection). Reconnects after a lost connection (with
 * `onWake` once, since notifications sent meanwhile are lost); `listening` says whether wake-ups can
 * be relied on right now.
 */
export class OutboxWakeups {
  private client?: Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;
  listening = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly onWake: (payload?: string) => void,
    private readonly logger: Logger,
    private readonly retryMs = 1_000,
    private readonly channel = OUTBOX_CHANNEL,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: this.channel === OUTBOX_CHANNEL ? 'outbox-wakeups' : `${this.channel}-wakeups` });
    client.on('notification', (n) => this.onWake(n.payload || undefined));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      if (this.stopped) return void (await client.end().catch(() => undefined));
      this.client = client;
      this.listening = true;
      this.onWake(); // whatever was committed while nobody listened
    } catch (err) {
      this.lost(client, err);
    }
  }

  private lost(client: Client, err?: unknown): void {
    if (client !== this.client && this.client) return;
    this.listening = false;
    this.client = undefined;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (this.stopped || this.retry) return;
    if (err) this.logger.warn({ err, channel: this.channel }, 'wake-ups lost; polling until they are back');
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.stopped) void this.connect();
    }, this.retryMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
