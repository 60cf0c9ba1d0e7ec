import { INSERT_EVENTS_SQL, eventRowsParam, type EventInput } from '@mapi/events';
import type { Pool } from 'pg';
import { SUBSCRIPTION_COLUMNS, mapSubscription, type SubscriptionFields } from '../subscriptions/map-subscription';

/** An event as the dispatcher keeps it: the body is the exact JSON that is delivered and signed. */
export interface StoredEvent {
  id: string;
  org_id: string;
  type: string;
  phone_id: string | null;
  created_at: string;
  body: string;
  /** The chat of the event (its data.chat_id): orders the deliveries of sinks with orderByChat. */
  chat_id?: string | null;
  /** The event's outbox seq (the relay's Mapi-Outbox-Seq header): a chat's order. Without it, unordered. */
  seq?: string | null;
}

/** A delivery a worker has claimed: leased until the lease ends, with what it needs to send it. */
export interface ClaimedDelivery {
  id: string;
  subscription_id: string;
  event_id: string;
  org_id: string;
  endpoint: string;
  /** 1-based number of the attempt being made. */
  attempt: number;
  hook_url: string;
  secret: string;
  /** The secret before the last rotation, still signing until previous_secret_expires_at. */
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  is_subscribed: boolean;
  failing_since: Date | null;
  body: string;
  type: string;
  /** When the event was committed (for the event → delivery latency metric). */
  event_created_at?: Date;
  /** http, or an event sink's transport with its settings and sealed credentials (decision 0087). */
  transport?: string;
  transport_config?: Record<string, unknown>;
  credentials?: Uint8Array | null;
  integration_id?: string;
}

/** The recorded end of one claimed delivery. */
export interface DeliveryResult {
  id: string;
  subscription_id: string;
  event_id: string;
  org_id: string;
  attempt: number;
  /** pending (retry at next_attempt_at) | succeeded | failed | cancelled */
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  next_attempt_at: string | null;
  /** Null for a cancellation (no HTTP attempt was made, nothing is logged). */
  log: null | {
    attempted_at: string;
    success: boolean;
    status_code: number | null;
    latency_ms: number;
    response_body: string | null;
    error: string | null;
  };
}

export interface SubscriptionEffects {
  succeeded: string[];
  failed: string[];
  disable: { id: string; reason: 'gone' | 'failing' }[];
}

/** Per-endpoint limits the claim enforces across replicas. */
export interface EndpointLimits {
  /** Deliveries of one endpoint leased (claimed, not yet recorded) at once. */
  maxInFlight: number;
  /** Claims per second per endpoint (token bucket; burst = one second's worth). */
  ratePerSecond: number;
}

/** Advisory lock key (bigint) serialising claims across replicas; the database is the dispatcher's own scope. */
const CLAIM_LOCK_KEY = '7768636991';

/** Event type emitted when the dispatcher disables a subscription on its own. */
export const SUBSCRIPTION_DISABLED_EVENT = 'webhook.subscription.disabled' as const;

/**
 * The delivery engine's SQL (plain pg on its own pool: one statement per batch, no ORM overhead on
 * the hot path). Scheduling, claiming and recording are each one statement or one transaction.
 */
export class DeliveryStore {
  constructor(private readonly pool: Pool) {}

  /**
   * Stores the events and creates one delivery per matching active subscription, in one statement
   * (so atomically). Unique (subscription_id, event_id): an event consumed twice adds nothing.
   */
  async scheduleEvents(events: StoredEvent[], now: Date): Promise<number> {
    return (await this.schedule(events, now)).scheduled;
  }

  /**
   * scheduleEvents, also answering whether any event is owed to a sink that keeps a chat's order
   * (orderByChat), scheduled now or before: then the intake raises the order floor once the batch is acked.
   */
  async schedule(events: StoredEvent[], now: Date): Promise<{ scheduled: number; ordered: boolean }> {
    if (!events.length) return { scheduled: 0, ordered: false };
    const res = await this.pool.query<{ scheduled: number; ordered: boolean }>(
      `WITH ev AS (
         SELECT * FROM ROWS FROM (jsonb_to_recordset($1::jsonb)
           AS (id uuid, org_id uuid, type text, phone_id text, body text, created_at timestamptz, chat_id text, seq bigint))
           WITH ORDINALITY AS e(id, org_id, type, phone_id, body, created_at, chat_id, seq, n)
       ), ins AS (
         INSERT INTO webhook_events (id, org_id, type, phone_id, body, created_at)
         SELECT id, org_id, type, phone_id, body, created_at FROM ev ON CONFLICT (id) DO NOTHING
       ), owed AS (
         INSERT INTO webhook_deliveries (subscription_id, event_id, org_id, endpoint, next_attempt_at, created_at, updated_at, chat_id, chat_seq)
         SELECT s.id, ev.id, ev.org_id, coalesce(substring(s.hook_url from '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]+'), s.hook_url), $2, $2, $2,
                -- only sinks that keep a chat's order get them (decision 0087): for the others the claim's check is skipped.
                -- The order is the events' outbox seq, not the rows' ids: a redelivered batch is scheduled after later events.
                CASE WHEN ordered THEN ev.chat_id END, CASE WHEN ordered THEN ev.seq END
         FROM ev JOIN webhook_subscriptions s ON s.org_id = ev.org_id AND s.integration_name = ev.type AND s.is_subscribed
         CROSS JOIN LATERAL (SELECT s.transport_config->>'orderByChat' = 'true' AND ev.chat_id IS NOT NULL AND ev.seq IS NOT NULL AS ordered) o
         ORDER BY ev.n
         ON CONFLICT (subscription_id, event_id) DO NOTHING
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM owed)::int AS scheduled,
              EXISTS (SELECT 1 FROM ev JOIN webhook_subscriptions s ON s.org_id = ev.org_id AND s.integration_name = ev.type AND s.is_subscribed
                      WHERE s.transport_config->>'orderByChat' = 'true' AND ev.chat_id IS NOT NULL AND ev.seq IS NOT NULL) AS ordered`,
      [JSON.stringify(events), now],
    );
    return res.rows[0];
  }

  /**
   * Raises the order floor to `outboxSeq` (every event at or below it is scheduled; never lowered).
   * Answers whether it moved: ordered deliveries up to it may be claimed now.
   */
  async raiseOrderFloor(outboxSeq: bigint): Promise<boolean> {
    const res = await this.pool.query(
      `INSERT INTO webhook_order_floor AS f (name, outbox_seq, updated_at) VALUES ('events', $1, now())
       ON CONFLICT (name) DO UPDATE SET outbox_seq = EXCLUDED.outbox_seq, updated_at = now() WHERE f.outbox_seq < EXCLUDED.outbox_seq`,
      [outboxSeq.toString()],
    );
    return (res.rowCount ?? 0) > 0;
  }

  /**
   * Claims up to `limit` due deliveries by moving their next_attempt_at to the end of a lease (a
   * worker that dies mid-attempt leaves them to be claimed again when the lease ends), within the
   * per-endpoint limits, which hold across every replica:
   * - at most `limits.maxInFlight` deliveries of one endpoint leased at once (leased_until > now);
   * - at most `limits.ratePerSecond` claims per second per endpoint (token bucket in
   *   webhook_endpoint_buckets, burst = one second's worth).
   * Claims are serialised by a transaction-scoped advisory lock, so the counts a claim reads cannot
   * change under it (the statement runs after the lock, in a fresh READ COMMITTED snapshot). Endpoints
   * are walked one by one (a skip scan over the partial index of unsettled rows), so one endpoint's
   * backlog never hides the others' due rows.
   */
  async claim(now: Date, leaseUntil: Date, limit: number, limits: EndpointLimits): Promise<ClaimedDelivery[]> {
    const client = await this.pool.connect();
    try {
      // The commit need not wait for the disk: a claim lost to a Postgres crash leaves its rows due, and
      // they are claimed and sent again (a duplicate, the same webhook-id: at-least-once). Taken with the
      // lock, so it costs no round trip; the fsync would be on every delivery's way to its POST. BEGIN and the
      // lock go in one simple query (the key is a constant): one round trip less before every claim.
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${CLAIM_LOCK_KEY}), set_config('synchronous_commit', 'off', true)`);
      const res = await client.query(
        `WITH RECURSIVE eps AS (
           (SELECT endpoint FROM webhook_deliveries WHERE next_attempt_at IS NOT NULL ORDER BY endpoint LIMIT 1)
           UNION ALL
           SELECT (SELECT d.endpoint FROM webhook_deliveries d
                   WHERE d.next_attempt_at IS NOT NULL AND d.endpoint > eps.endpoint ORDER BY d.endpoint LIMIT 1)
           FROM eps WHERE eps.endpoint IS NOT NULL
         ), quota AS (
           SELECT eps.endpoint, LEAST(
               $4::int - (SELECT count(*) FROM webhook_deliveries f
                          WHERE f.endpoint = eps.endpoint AND f.leased_until IS NOT NULL AND f.leased_until > $1)::int,
               floor(coalesce(LEAST($5::float8, b.tokens + GREATEST(0, extract(epoch FROM ($1 - b.refilled_at))) * $5::float8), $5::float8))::int
             ) AS n
           FROM eps LEFT JOIN webhook_endpoint_buckets b ON b.endpoint = eps.endpoint
           WHERE eps.endpoint IS NOT NULL
             -- only endpoints with something due: one probe of the (endpoint, next_attempt_at) index spares
             -- the in-flight count and the bucket of every endpoint whose retries are still hours away
             AND EXISTS (SELECT 1 FROM webhook_deliveries due
                         WHERE due.endpoint = eps.endpoint AND due.next_attempt_at IS NOT NULL AND due.next_attempt_at <= $1)
         ), picked AS (
           SELECT p.id, p.endpoint FROM quota q CROSS JOIN LATERAL (
             SELECT d.id, d.endpoint, d.next_attempt_at FROM webhook_deliveries d
             WHERE d.endpoint = q.endpoint AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= $1
               -- a chat's order (sinks with orderByChat, decision 0087): only its earliest unsettled delivery by outbox
               -- seq may go, and only once every earlier event is scheduled (the floor): an earlier event of the chat
               -- still in JetStream (a batch redelivered after a dispatcher died, or scheduled by a slower replica)
               -- has no row yet, and must not be overtaken
               AND (d.chat_seq IS NULL OR (
                 d.chat_seq <= (SELECT f.outbox_seq FROM webhook_order_floor f WHERE f.name = 'events')
                 AND NOT EXISTS (
                   SELECT 1 FROM webhook_deliveries o
                   WHERE o.subscription_id = d.subscription_id AND o.chat_id = d.chat_id AND o.next_attempt_at IS NOT NULL
                     AND o.chat_seq IS NOT NULL AND o.chat_seq < d.chat_seq)))
             ORDER BY d.next_attempt_at LIMIT GREATEST(q.n, 0)
           ) p
           WHERE q.n > 0
           ORDER BY p.next_attempt_at LIMIT $3
         ), taken AS (
           SELECT endpoint, count(*)::float8 AS n FROM picked GROUP BY endpoint
         ), spent AS (
           INSERT INTO webhook_endpoint_buckets AS b (endpoint, tokens, refilled_at)
           SELECT endpoint, $5::float8 - n, $1 FROM taken
           ON CONFLICT (endpoint) DO UPDATE SET
             tokens = LEAST($5::float8, b.tokens + GREATEST(0, extract(epoch FROM ($1 - b.refilled_at))) * $5::float8) - ($5::float8 - EXCLUDED.tokens),
             refilled_at = GREATEST(b.refilled_at, $1)
         )
         UPDATE webhook_deliveries d SET next_attempt_at = $2, leased_until = $2, attempts = d.attempts + 1, updated_at = $1
         FROM picked, webhook_subscriptions s, webhook_events e
         WHERE d.id = picked.id AND s.id = d.subscription_id AND e.id = d.event_id
           AND d.next_attempt_at <= $1
         RETURNING d.id::text AS id, d.subscription_id, d.event_id, d.org_id, d.endpoint, d.attempts AS attempt,
                   s.hook_url, s.secret, s.previous_secret, s.previous_secret_expires_at, s.is_subscribed, s.failing_since, e.body, e.type,
                   e.created_at AS event_created_at, s.transport, s.transport_config, s.credentials, s.integration_id`,
        [now, leaseUntil, limit, limits.maxInFlight, limits.ratePerSecond],
      );
      await client.query('COMMIT');
      return res.rows as ClaimedDelivery[];
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /**
   * Hands back claimed deliveries that were never sent (a worker stopping): due again now, lease and
   * attempt undone, so their endpoints' in-flight slots are free at once instead of after the lease.
   * A row claimed again meanwhile (its attempt moved on) is left alone.
   */
  async release(rows: readonly Pick<ClaimedDelivery, 'id' | 'attempt'>[], now: Date): Promise<void> {
    if (!rows.length) return;
    await this.pool.query(
      `UPDATE webhook_deliveries d SET next_attempt_at = $2, leased_until = NULL, attempts = d.attempts - 1, updated_at = $2
       FROM jsonb_to_recordset($1::jsonb) AS v(id bigint, attempt int)
       WHERE d.id = v.id AND d.attempts = v.attempt AND d.status = 'pending'`,
      [JSON.stringify(rows.map((r) => ({ id: r.id, attempt: r.attempt }))), now],
    );
  }

  /** Records a batch of ends: the log rows, the deliveries' next state and the subscriptions' health, in one transaction. */
  async record(results: DeliveryResult[], effects: SubscriptionEffects, now: Date): Promise<void> {
    if (!results.length) return;
    const client = await this.pool.connect();
    try {
      // Without waiting for the disk: results lost to a Postgres crash leave their rows leased, and they
      // are sent again when the lease ends (at-least-once, the same webhook-id); the log rows of those
      // attempts are lost with them. The fsync held the endpoints' slots and the next claim's wake-up.
      await client.query(`BEGIN; SET LOCAL synchronous_commit = off`);
      const logs = results
        .filter((r) => r.log)
        .map((r) => ({
          delivery_id: r.id,
          subscription_id: r.subscription_id,
          event_id: r.event_id,
          org_id: r.org_id,
          attempt: r.attempt,
          ...r.log,
        }));
      if (logs.length) {
        await client.query(
          `INSERT INTO webhook_attempts (delivery_id, subscription_id, event_id, org_id, attempt, attempted_at, success, status_code, latency_ms, response_body, error)
           SELECT delivery_id, subscription_id, event_id, org_id, attempt, attempted_at, success, status_code, latency_ms, response_body, error
           FROM jsonb_to_recordset($1::jsonb) AS v(delivery_id bigint, subscription_id uuid, event_id uuid, org_id uuid, attempt int,
             attempted_at timestamptz, success boolean, status_code int, latency_ms int, response_body text, error text)
           WHERE EXISTS (SELECT 1 FROM webhook_subscriptions s WHERE s.id = v.subscription_id)`,
          [JSON.stringify(logs)],
        );
      }
      await client.query(
        `UPDATE webhook_deliveries d SET status = v.status, next_attempt_at = v.next_attempt_at,
           -- frees the endpoint slot, unless another worker has claimed the row again since (lease ended)
           leased_until = CASE WHEN d.attempts = v.attempt THEN NULL ELSE d.leased_until END,
           last_status = coalesce(v.status_code, d.last_status), last_error = v.error, updated_at = $2
         FROM jsonb_to_recordset($1::jsonb) AS v(id bigint, attempt int, status text, next_attempt_at timestamptz, status_code int, error text)
         WHERE d.id = v.id`,
        [
          JSON.stringify(
            results.map((r) => ({
              id: r.id,
              attempt: r.attempt,
              status: r.status,
              next_attempt_at: r.next_attempt_at,
              status_code: r.log?.status_code ?? null,
              error: r.log?.error ?? null,
            })),
          ),
          now,
        ],
      );
      if (effects.succeeded.length) {
        await client.query(
          `UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = ANY($1::uuid[]) AND failing_since IS NOT NULL`,
          [effects.succeeded],
        );
      }
      if (effects.failed.length) {
        await client.query(`UPDATE webhook_subscriptions SET failing_since = $2 WHERE id = ANY($1::uuid[]) AND failing_since IS NULL`, [
          effects.failed,
          now,
        ]);
      }
      const events: EventInput[] = [];
      for (const d of effects.disable) {
        const disabled = await client.query<SubscriptionFields & { failing_since: Date | null }>(
          `UPDATE webhook_subscriptions SET is_subscribed = false, disabled_reason = $2, updated_at = $3
           WHERE id = $1 AND is_subscribed RETURNING ${SUBSCRIPTION_COLUMNS.join(', ')}, failing_since`,
          [d.id, d.reason, now],
        );
        for (const s of disabled.rows) {
          const data = {
            ...mapSubscription(s),
            reason: d.reason,
            failing_since: s.failing_since?.toISOString() ?? null,
            disabled_at: now.toISOString(),
          };
          events.push({ type: SUBSCRIPTION_DISABLED_EVENT, org_id: s.org_id, data });
        }
      }
      // Events of their own, in the same transaction as the change (the outbox), written last: the
      // statement takes the outbox lock, held until the commit.
      if (events.length) await client.query(INSERT_EVENTS_SQL, [eventRowsParam(events)]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
