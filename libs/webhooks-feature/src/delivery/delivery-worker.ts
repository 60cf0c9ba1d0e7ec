import type { Logger } from 'pino';
import type { Clock } from './clock';
import { DeliveryMetrics, type DeliveryOutcome } from './delivery-metrics';
import type { ClaimedDelivery, DeliveryResult, DeliveryStore, EndpointLimits, SubscriptionEffects } from './delivery-store';
import { signingSecrets, signatureHeaders, type SendResult } from '@mapi/platform';
import { decideAfterAttempt, isSustainedFailure } from './retry-policy';
import type { SinkTarget } from '../sinks/sink-transport';

/** Sends one delivery: an HTTP POST, or (`sendToSink`, decision 0087) an event sink's broker publish. */
export interface Sender {
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
  /** Success is `delivered` (the broker's ack; a broker has no HTTP status). Without it, sink deliveries fail. */
  sendToSink?(
    url: string,
    body: string,
    headers: Record<string, string>,
    target: SinkTarget,
  ): Promise<SendResult & { delivered?: boolean }>;
}

export interface DeliveryWorkerOptions {
  /** Requests in flight at once (all endpoints). */
  concurrency: number;
  /** Per-endpoint limits, enforced by the claim across every replica. */
  endpointLimits: EndpointLimits;
  leaseMs: number;
  /** Poll interval after a claim found work; empty claims double it, up to idlePollMs. */
  pollMs: number;
  /** Longest wait between claims while nothing is due (a wake-up from this process's intake ends it). Default pollMs × 8. */
  idlePollMs?: number;
  claimBatch: number;
  flushMs: number;
  schedule: readonly number[];
  disableAfterMs: number;
  random?: () => number;
}

/**
 * Claims due deliveries (the claim applies the per-endpoint limits, across replicas), POSTs them
 * signed, and records each attempt and the next step in batches. Everything it knows is in Postgres before it matters: a worker killed at any
 * point leaves leased rows that are claimed again when their lease ends (a duplicate, same event id).
 */
export class DeliveryWorker {
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  /** A wake-up that came while claiming: claim once more before sleeping. */
  private woken = false;
  /** Claimed, waiting for one of this process's `concurrency` slots. */
  private queue: ClaimedDelivery[] = [];
  private inFlight = 0;
  private idle?: () => void;
  private results: DeliveryResult[] = [];
  private effects: SubscriptionEffects = { succeeded: [], failed: [], disable: [] };
  private flushing: Promise<void> = Promise.resolve();
  private flushTimer?: NodeJS.Timeout;
  private readonly metrics = new DeliveryMetrics();

  constructor(
    private readonly store: DeliveryStore,
    private readonly sender: Sender,
    private readonly clock: Clock,
    private readonly options: DeliveryWorkerOptions,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** New deliveries were scheduled, or results recorded: claim now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve));
    await this.flush();
    // Deliveries still queued here were never sent: handed back, so their endpoints' slots are free now
    // (were this process killed instead, the leases would run out and they would be claimed again).
    await this.store
      .release(this.queue.splice(0), this.clock.now())
      .catch((err) => this.logger.warn({ err }, 'releasing unsent deliveries failed; their leases will run out'));
  }

  private async run(): Promise<void> {
    let wait = this.options.pollMs;
    while (this.running) {
      let claimed = 0;
      let limit = 0;
      this.woken = false;
      try {
        limit = Math.min(this.options.claimBatch, this.options.concurrency * 2 - this.inFlight - this.queue.length);
        if (limit > 0) {
          const now = this.clock.now();
          const rows = await this.store.claim(now, new Date(now.getTime() + this.options.leaseMs), limit, this.options.endpointLimits);
          claimed = rows.length;
          this.queue.push(...rows);
          this.pump();
        }
      } catch (err) {
        this.logger.error({ err }, 'claiming deliveries failed');
      }
      if (!this.running) break;
      if (limit > 0 && claimed === limit) continue;
      if (this.woken && limit > 0) {
        this.woken = false;
        continue;
      }
      this.woken = false;
      // At rest the claims space out (each is a transaction); any work found brings the interval back.
      wait =
        claimed > 0 || this.inFlight > 0 ? this.options.pollMs : Math.min(wait * 2, this.options.idlePollMs ?? this.options.pollMs * 8);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, wait);
        this.wakeUp = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wakeUp = undefined;
    }
  }

  /** Starts queued deliveries while this process has slots (their endpoints' limits were applied by the claim). */
  private pump(): void {
    while (this.queue.length && this.inFlight < this.options.concurrency) {
      const row = this.queue.shift();
      if (!row) break;
      this.inFlight++;
      void this.deliver(row).finally(() => {
        this.inFlight--;
        if (this.inFlight === 0) this.idle?.();
        if (this.running) this.pump();
      });
    }
  }

  private async deliver(row: ClaimedDelivery): Promise<void> {
    try {
      if (!row.is_subscribed) {
        this.push({ ...this.base(row), status: 'cancelled', next_attempt_at: null, log: null });
        this.measure(row, 'cancelled');
        return;
      }
      const attemptedAt = this.clock.now();
      const secrets = signingSecrets(row.secret, row.previous_secret, row.previous_secret_expires_at, attemptedAt);
      const target: SinkTarget | undefined =
        row.transport && row.transport !== 'http'
          ? {
              transport: row.transport,
              transport_config: row.transport_config ?? {},
              credentials: row.credentials ?? null,
              org_id: row.org_id,
              integration_id: row.integration_id ?? '',
              type: row.type,
              event_id: row.event_id,
            }
          : undefined;
      const headers = signatureHeaders(secrets, row.event_id, row.body, attemptedAt);
      const result: SendResult & { delivered?: boolean } = !target
        ? await this.sender.send(row.hook_url, row.body, headers)
        : this.sender.sendToSink
          ? await this.sender.sendToSink(row.hook_url, row.body, headers, target)
          : {
              status: null,
              timedOut: false,
              latencyMs: 0,
              responseBody: null,
              retryAfter: null,
              error: `no ${target.transport} transport`,
            };
      const now = this.clock.now();
      // a broker's ack counts as a 2xx for the retry policy; the log keeps its status null
      const outcome = result.delivered ? { ...result, status: 200 } : result;
      const decision = decideAfterAttempt(outcome, row.attempt, now, this.options.random, this.options.schedule);
      const log = {
        attempted_at: attemptedAt.toISOString(),
        success: decision.kind === 'succeeded',
        status_code: result.status,
        latency_ms: result.latencyMs,
        response_body: result.responseBody,
        error: result.error ?? (decision.kind === 'succeeded' ? null : `HTTP ${result.status}`),
      };
      if (decision.kind === 'succeeded') {
        this.effects.succeeded.push(row.subscription_id);
        this.push({ ...this.base(row), status: 'succeeded', next_attempt_at: null, log });
        this.measure(row, 'succeeded');
        return;
      }
      if (decision.kind === 'gone') {
        this.effects.disable.push({ id: row.subscription_id, reason: 'gone' });
        this.push({ ...this.base(row), status: 'failed', next_attempt_at: null, log });
        this.measure(row, 'gone');
        return;
      }
      this.effects.failed.push(row.subscription_id);
      if (isSustainedFailure(row.failing_since ? new Date(row.failing_since) : null, now, this.options.disableAfterMs)) {
        this.effects.disable.push({ id: row.subscription_id, reason: 'failing' });
        this.push({ ...this.base(row), status: 'failed', next_attempt_at: null, log });
        this.measure(row, 'failed');
        return;
      }
      if (decision.kind === 'exhausted') this.push({ ...this.base(row), status: 'failed', next_attempt_at: null, log });
      else this.push({ ...this.base(row), status: 'pending', next_attempt_at: decision.at.toISOString(), log });
      this.measure(row, decision.kind === 'exhausted' ? 'failed' : 'retry');
    } catch (err) {
      // Nothing recorded: the lease runs out and the delivery is tried again.
      this.logger.error({ err, delivery_id: row.id }, 'delivery failed unexpectedly');
    }
  }

  private measure(row: ClaimedDelivery, outcome: DeliveryOutcome): void {
    this.metrics.record(outcome, row.attempt, row.event_created_at, this.clock.now());
  }

  private base(row: ClaimedDelivery) {
    return { id: row.id, subscription_id: row.subscription_id, event_id: row.event_id, org_id: row.org_id, attempt: row.attempt };
  }

  private push(result: DeliveryResult): void {
    this.results.push(result);
    if (this.results.length >= 500) void this.flush();
    else this.flushTimer ??= setTimeout(() => void this.flush(), this.options.flushMs);
  }

  /** Writes the collected results in one transaction (serialised: one flush at a time). */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.flushing = this.flushing.then(async () => {
      if (!this.results.length) return;
      const results = this.results;
      const effects = this.effects;
      this.results = [];
      this.effects = { succeeded: [], failed: [], disable: [] };
      const unique = (ids: string[]) => [...new Set(ids)];
      try {
        await this.store.record(
          results,
          { succeeded: unique(effects.succeeded), failed: unique(effects.failed), disable: effects.disable },
          this.clock.now(),
        );
        // Recording frees the endpoints' in-flight slots: claim again now rather than at the next poll.
        if (this.running) this.wake();
      } catch (err) {
        this.logger.error(
          { err, count: results.length },
          'recording delivery results failed; the deliveries will be retried when their leases end',
        );
      }
    });
    return this.flushing;
  }
}
