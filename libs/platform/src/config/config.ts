import { z } from 'zod';

/**
 * Configuration groups, validated once at boot from the environment. Each app composes the groups
 * it needs with `loadConfig`; a bad value stops the process with a message naming the variable.
 */
/** A whole number from the environment; unset or empty means the default (an empty `PORT=` is not 0). */
const int = (def: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().nonnegative().max(max).default(def));

/**
 * A boolean setting: true/1 or false/0 (empty or unset: the default); anything else is a configuration
 * error, so a typo (`TRUE`, `yes`) cannot quietly turn a safety switch off.
 */
export const envBool = (def: boolean) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
    z.boolean().default(def),
  );

export const ConfigGroups = {
  app: z.object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /** Prefix of NATS subjects and Redis keys, so several deployments (or test runs) can share servers. */
    NAMESPACE: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/)
      .default('mapi'),
  }),
  database: z
    .object({
      DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/mapi'),
      DATABASE_POOL_SIZE: int(10),
      /**
       * A connection straight to Postgres, for what a transaction-mode pooler (PgBouncer) cannot carry:
       * LISTEN wake-ups and the migrations' session lock. Unset: DATABASE_URL (no pooler in between).
       */
      DATABASE_DIRECT_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
      /**
       * What DATABASE_URL reaches: Postgres itself (none), or PgBouncer in transaction mode (pgbouncer),
       * where no session state may be relied on: connection startup options are refused and settings
       * are made per transaction instead. pgbouncer requires DATABASE_DIRECT_URL.
       */
      DATABASE_POOLER: z.enum(['none', 'pgbouncer']).default('none'),
    })
    .superRefine((d, ctx) => {
      if (d.DATABASE_POOLER === 'pgbouncer' && !d.DATABASE_DIRECT_URL) {
        ctx.addIssue({
          code: 'custom',
          path: ['DATABASE_DIRECT_URL'],
          message: 'required with DATABASE_POOLER=pgbouncer (LISTEN and the migration lock need a session of their own)',
        });
      }
    }),
  redis: z.object({ REDIS_URL: z.string().url().default('redis://127.0.0.1:6379') }),
  nats: z.object({
    NATS_URL: z.string().default('nats://127.0.0.1:4222'),
    RPC_TIMEOUT_MS: int(10_000),
    /** How long the gateway retries a request no instance of its service receives (a restart), then 503 with Retry-After. */
    RPC_UNAVAILABLE_RETRY_MS: int(5_000),
  }),
  http: z.object({
    HOST: z.string().default('0.0.0.0'),
    PORT: int(8080, 65535),
    BODY_LIMIT_BYTES: int(10 * 1024 * 1024),
    PUBLIC_BASE_URL: z.string().url().optional(),
  }),
  health: z.object({ HEALTH_PORT: int(0, 65535), HEALTH_HOST: z.string().default('0.0.0.0') }),
  rateLimit: z.object({
    RATE_LIMIT_PER_SECOND: int(100),
    /** JSON map of route (`METHOD /path` as in the spec) to requests per second, counted apart. */
    RATE_LIMIT_ROUTES: z
      .string()
      .default('{}')
      .transform((s, ctx) => {
        try {
          return z.record(z.string(), z.number().int().positive()).parse(JSON.parse(s));
        } catch {
          ctx.addIssue({ code: 'custom', message: 'must be a JSON object of route to positive integer' });
          return z.NEVER;
        }
      }),
  }),
  auth: z.object({ AUTH_CACHE_TTL_MS: int(5_000), AUTH_CACHE_STALE_MS: int(60_000) }),
  telemetry: z.object({
    OTEL_SERVICE_NAME: z.string().optional(),
    OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** false: no meter provider (every instrument a no-op, GET /metrics 404); read by startTelemetry, validated here. */
    METRICS_ENABLED: z.enum(['true', 'false']).default('true'),
  }),
} as const;

type Groups = typeof ConfigGroups;
export type ConfigOf<K extends keyof Groups> = { [G in K]: z.infer<Groups[G]> };

export class ConfigError extends Error {}

/** One error naming every bad variable (path: message), as every service's configuration reports it. */
export function configError(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ConfigError {
  return new ConfigError(`Invalid configuration:\n  ${issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('\n  ')}`);
}

/** A service's own variables validated by `schema`, or a ConfigError naming every bad one. */
export function parseConfig<T>(schema: z.ZodType<T>, env: NodeJS.ProcessEnv = process.env): T {
  const result = schema.safeParse(env);
  if (!result.success) throw configError(result.error.issues);
  return result.data;
}

export function loadConfig<K extends keyof Groups>(groups: readonly K[], env: NodeJS.ProcessEnv = process.env): ConfigOf<K> {
  const out = {} as ConfigOf<K>;
  const problems: string[] = [];
  for (const group of groups) {
    const result = ConfigGroups[group].safeParse(env);
    if (result.success) (out as Record<string, unknown>)[group] = result.data;
    else for (const issue of result.error.issues) problems.push(`${issue.path.join('.')}: ${issue.message}`);
  }
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return out;
}

/** Where LISTEN and session locks connect: DATABASE_DIRECT_URL, else DATABASE_URL (docs/operations.md, "Connection budget"). */
export function directDatabaseUrl(database: { DATABASE_URL: string; DATABASE_DIRECT_URL?: string }): string {
  return database.DATABASE_DIRECT_URL ?? database.DATABASE_URL;
}
