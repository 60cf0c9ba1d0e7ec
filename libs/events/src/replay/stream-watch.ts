import { Events, type NatsConnection, type StreamInfo } from 'nats';
import type { Logger } from 'pino';
import { consumedFloor } from './consumed-floor';

/**
 * A producer that keeps what it published until every consumer has taken it (docs/decisions/0079):
 * told how far the consumers have got, and asked to publish again after a loss.
 */
export interface StreamReplaySource {
  /**
   * Every durable consumer has acknowledged the stream through sequence `floor`, of the stream as
   * `info` describes it (read at `readAt`): what is kept for it up to there may go.
   */
  consumed(floor: number, info: StreamInfo, readAt: Date): Promise<void>;
  /** The stream lost messages: publish again, in their order, whatever may not have been consumed. Returns how many. */
  replay(info: StreamInfo): Promise<number>;
}

export interface StreamWatchOptions {
  /** How often the stream is read (also at once after each NATS reconnect). Default 2 s. */
  intervalMs?: number;
}

export type WatchRound = 'unavailable' | 'intact' | 'replayed';

/**
 * Watches one stream for a loss: nats-server restarted on an empty store, or the stream deleted
 * (then an app creates it again and its creation time changes), or its last sequence going back.
 * Between losses it tells the source how far the durable consumers have acknowledged; after one it
 * has the source publish again. Every producer process runs its own watch: replays that overlap
 * carry the same Nats-Msg-Id and the stream's duplicate window keeps one of each.
 *
 * A loss while no producer of the stream runs (every one restarted too) is not seen: the watch
 * compares with what this process saw last.
 */
export class StreamWatch {
  private known?: { created: string; lastSeq: number };
  private timer?: NodeJS.Timeout;
  private running = false;
  private round$?: Promise<WatchRound>;
  private lastError?: string;

  constructor(
    private readonly nc: NatsConnection,
    private readonly stream: string,
    private readonly source: StreamReplaySource,
    private readonly logger: Logger,
    private readonly options: StreamWatchOptions = {},
  ) {}

  /** The stream's creation time as last read (undefined before the first read). */
  get created(): string | undefined {
    return this.known?.created;
  }

  /** Reads the stream once (awaited), then every interval and after each reconnect. */
  async start(): Promise<void> {
    this.running = true;
    await this.round();
    this.schedule();
    void this.watchReconnects();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.round$?.catch(() => undefined);
  }

  /** One reading (a reading under way is waited for, then another runs). */
  async round(): Promise<WatchRound> {
    while (this.round$) await this.round$.catch(() => undefined);
    this.round$ = this.readOnce();
    try {
      return await this.round$;
    } finally {
      this.round$ = undefined;
    }
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => void this.round().finally(() => this.schedule()), this.options.intervalMs ?? 2_000);
  }

  private async watchReconnects(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (!this.running) return;
      if (status.type === Events.Reconnect) void this.round();
    }
  }

  private async readOnce(): Promise<WatchRound> {
    const readAt = new Date();
    let info: StreamInfo;
    try {
      const jsm = await this.nc.jetstreamManager();
      info = await jsm.streams.info(this.stream);
      const known = this.known;
      if (known && (info.created !== known.created || info.state.last_seq < known.lastSeq)) {
        const replayed = await this.source.replay(info);
        this.logger.warn(
          { stream: this.stream, replayed, created: info.created, was: known },
          'stream lost messages; what was not consumed is published again',
        );
        this.known = { created: info.created, lastSeq: info.state.last_seq };
        return 'replayed';
      }
      this.known = { created: info.created, lastSeq: Math.max(known?.lastSeq ?? 0, info.state.last_seq) };
      await this.source.consumed(await consumedFloor(jsm, this.stream, info), info, readAt);
      this.lastError = undefined;
      return 'intact';
    } catch (err) {
      // NATS away, or the stream not created again yet: the next round (or the reconnect) tries again.
      const message = (err as Error).message;
      if (message !== this.lastError)
        this.logger.warn({ stream: this.stream, err: message }, 'stream watch: cannot read the stream; retrying');
      this.lastError = message;
      return 'unavailable';
    }
  }
}
