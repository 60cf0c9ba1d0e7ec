import { z } from 'zod';
import { parseConfig } from '@mapi/platform';
import { DEFAULT_RETRY_SCHEDULE_MS } from './delivery/retry-policy';

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(min).max(max).default(def));

const list = (def: string) =>
  z
    .string()
    .default(def)
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    );

/** The webhooks service's own variables (WEBHOOK_*); see docs/services/webhooks.md. */
export const WebhooksConfigSchema = z.object({
  /** Which parts this process runs: api (subscription RPCs), intake (the EVENTS consumer), delivery (workers). */
  WEBHOOK_ROLES: list('api,intake,delivery').pipe(z.array(z.enum(['api', 'intake', 'delivery'])).min(1)),
  WEBHOOK_DELIVERY_TIMEOUT_MS: int(15_000, 100),
  /** How long a claimed delivery is reserved for its worker; past it, another worker may claim it. */
  WEBHOOK_CLAIM_LEASE_MS: int(60_000, 500),
  WEBHOOK_CONCURRENCY: int(256, 1, 10_000),
  /**
   * Per endpoint (origin of the hook URL), across every replica: deliveries claimed and not yet recorded.
   * The defaults keep one receiver's 200 events/s from queueing behind its own limits (the aim of
   * docs/benchmarks.md, "Reactions and edits to a webhook"): tighter ones add their wait to every
   * delivery at that rate. Lower them for receivers that cannot take that.
   */
  WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: int(128, 1, 10_000),
  /** Per endpoint, across every replica: claims per second (token bucket, burst = one second's worth). */
  WEBHOOK_ENDPOINT_RATE_PER_SECOND: int(1_000, 1, 1_000_000),
  WEBHOOK_POLL_INTERVAL_MS: int(250, 5),
  /** Longest wait between claims while nothing is due (empty claims double the interval up to it). */
  WEBHOOK_IDLE_POLL_INTERVAL_MS: int(2_000, 5),
  WEBHOOK_CLAIM_BATCH: int(500, 1, 10_000),
  WEBHOOK_INTAKE_BATCH: int(500, 1, 10_000),
  /** How long JetStream waits for the intake's ack before redelivering (after a crash). */
  WEBHOOK_INTAKE_ACK_WAIT_MS: int(30_000, 1_000),
  /** Comma-separated milliseconds: delay before each attempt (first is the first try). */
  WEBHOOK_RETRY_SCHEDULE_MS: list(DEFAULT_RETRY_SCHEDULE_MS.join(','))
    .transform((xs) => xs.map(Number))
    .pipe(z.array(z.number().int().nonnegative()).min(1)),
  /** A subscription failing without any success for this long is disabled (5 days). */
  WEBHOOK_DISABLE_AFTER_FAILING_MS: int(5 * 24 * 3_600_000, 1),
  /** After a secret rotation, the previous secret also signs (a second `v1,` entry) for this long (24 h). */
  WEBHOOK_SECRET_ROTATION_OVERLAP_MS: int(24 * 3_600_000, 0),
  /** Delivery log, settled deliveries and kept events older than this are deleted (30 days). */
  WEBHOOK_RETENTION_MS: int(30 * 24 * 3_600_000, 60_000),
  /** Time between retention sweeps (1 h). */
  WEBHOOK_RETENTION_SWEEP_INTERVAL_MS: int(3_600_000, 1_000),
  /** Address ranges exempt from the SSRF block, e.g. 127.0.0.1/32,::1/128 for a local receiver. */
  WEBHOOK_ALLOW_CIDRS: list(''),
  /**
   * The key that seals the Baileys auth state (32 bytes, base64) also seals event sinks' credentials
   * (decision 0087). Unset: sinks without credentials only (creating one with credentials is a 503).
   */
  BAILEYS_AUTH_KEY: z
    .preprocess((v) => (v === '' ? undefined : v), z.string().optional())
    .refine((v) => v === undefined || Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64-encoded'),
});
export type WebhooksConfig = z.infer<typeof WebhooksConfigSchema>;

export function loadWebhooksConfig(env: NodeJS.ProcessEnv = process.env): WebhooksConfig {
  return parseConfig(WebhooksConfigSchema, env);
}
