import { z } from 'zod';

const optional = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/** Settings of the Cloud API connector (phones with connector `cloud_api`, docs/services/cloud-api.md). */
export const CloudApiConfigSchema = z.object({
  /** 32 bytes, base64: encrypts the phones' access token, app secret and verify token at rest. Unset: no Cloud API phones. */
  CLOUD_API_SECRETS_KEY: optional.refine(
    (v) => v === undefined || Buffer.from(v, 'base64').length === 32,
    'must be 32 bytes, base64-encoded',
  ),
  /** Meta's Graph API, with its version (tests point it at a fake). */
  CLOUD_API_GRAPH_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
  /** Time of one Graph API request. */
  CLOUD_API_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** While the Graph API cannot be reached, how often the phone's session tries again. */
  CLOUD_API_RETRY_MS: z.coerce.number().int().min(100).default(30_000),
  /** How often a connected phone looks for received files still to fetch (one indexed query per phone). */
  CLOUD_API_MEDIA_POLL_MS: z.coerce.number().int().min(50).default(2_000),
  /** Meta's callbacks taken per phone per second by each phones replica (more: 429, Meta delivers again); 0 is no limit. */
  CLOUD_API_CALLBACK_RATE_PER_S: z.coerce.number().int().min(0).default(1_000),
});

export interface CloudApiConfig {
  secretsKey: Buffer | null;
  graphUrl: string;
  timeoutMs: number;
  retryMs: number;
  mediaPollMs: number;
  callbackRatePerSecond: number;
}

/** Parses the settings; the issues name the variables (the caller turns them into a ConfigError). */
export function parseCloudApiConfig(env: NodeJS.ProcessEnv): { ok: true; config: CloudApiConfig } | { ok: false; issues: string[] } {
  const parsed = CloudApiConfigSchema.safeParse(env);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) };
  const c = parsed.data;
  return {
    ok: true,
    config: {
      secretsKey: c.CLOUD_API_SECRETS_KEY ? Buffer.from(c.CLOUD_API_SECRETS_KEY, 'base64') : null,
      graphUrl: c.CLOUD_API_GRAPH_URL.replace(/\/+$/, ''),
      timeoutMs: c.CLOUD_API_TIMEOUT_MS,
      retryMs: c.CLOUD_API_RETRY_MS,
      mediaPollMs: c.CLOUD_API_MEDIA_POLL_MS,
      callbackRatePerSecond: c.CLOUD_API_CALLBACK_RATE_PER_S,
    },
  };
}
