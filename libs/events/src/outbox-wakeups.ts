import type { Logger } from 'pino';
import { SessionConnection } from './session-connection';

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
  private readonly session: SessionConnection<void>;
  listening = false;

  constructor(
    databaseUrl: string,
    private readonly onWake: (payload?: string) => void,
    logger: Logger,
    retryMs = 1_000,
    channel = OUTBOX_CHANNEL,
  ) {
    this.session = new SessionConnection<void>({
      databaseUrl,
      applicationName: channel === OUTBOX_CHANNEL ? 'outbox-wakeups' : `${channel}-wakeups`,
      logger,
      retryMs,
      onNotification: (payload) => this.onWake(payload),
      open: async (client) => void (await client.query(`LISTEN ${channel}`)),
      ready: () => {
        this.listening = true;
        this.onWake(); // whatever was committed while nobody listened
      },
      lost: () => (this.listening = false),
      lostMessage: 'wake-ups lost; polling until they are back',
      logFields: { channel },
    });
  }

  start(): Promise<void> {
    return this.session.start();
  }

  stop(): Promise<void> {
    return this.session.stop();
  }
}
