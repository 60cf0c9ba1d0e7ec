import { hostname } from 'node:os';
import { z } from 'zod';

/** Settings of the phones service (validated at start with the platform's groups). */
export const PhonesConfigSchema = z.object({
  /** Serve the sandbox network and its control API (/v1/sandbox/*). On by default for development. */
  SANDBOX_ENABLED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** Connector of phones created through the API: sandbox (default) or baileys (later). */
  DEFAULT_CONNECTOR: z.enum(['sandbox', 'baileys']).default('sandbox'),
  /** How long a replica's claim on a phone session lasts without renewal: the takeover time after a crash. */
  PHONE_LEASE_TTL_MS: z.coerce.number().int().min(1_000).default(10_000),
  /** How often a replica renews its leases and looks for sessions running nowhere. */
  SESSION_SCAN_MS: z.coerce.number().int().min(100).default(3_000),
  REPLICA_ID: z.string().min(1).default(`${hostname()}-${process.pid}`),
});
export type PhonesConfig = z.infer<typeof PhonesConfigSchema>;
