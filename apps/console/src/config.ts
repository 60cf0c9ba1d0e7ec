import { z } from 'zod';
import { parseConfig } from '@mapi/platform';

/** The console server's own setting; PORT/HOST and HEALTH_PORT/HEALTH_HOST are the platform's groups. */
export const ConsoleConfigSchema = z.object({
  /** The gateway's base URL (without /v1): the console forwards /v1/* and /v1/socket.io/* there. */
  CONSOLE_GATEWAY_URL: z.url().default('http://127.0.0.1:8080'),
  /**
   * The media app's base URL: when set, /app/media/* (message files) is forwarded there, so that with
   * the media app's MEDIA_BASE_URL at the console's origin the conversation's images, players and
   * downloads load from this origin (as behind the Ingress). Unset: the links point wherever
   * MEDIA_BASE_URL says (another origin is refused by the pages' CSP).
   */
  CONSOLE_MEDIA_URL: z.preprocess((v) => (v === '' ? undefined : v), z.url().optional()),
});
export type ConsoleConfig = z.infer<typeof ConsoleConfigSchema>;

export const loadConsoleConfig = (env: NodeJS.ProcessEnv = process.env): ConsoleConfig => parseConfig(ConsoleConfigSchema, env);
