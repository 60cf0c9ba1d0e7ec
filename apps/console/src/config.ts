import { z } from 'zod';
import { parseConfig } from '@mapi/platform';

/** The console server's own setting; PORT/HOST and HEALTH_PORT/HEALTH_HOST are the platform's groups. */
export const ConsoleConfigSchema = z.object({
  /** The gateway's base URL (without /v1): the console forwards /v1/* and /v1/socket.io/* there. */
  CONSOLE_GATEWAY_URL: z.url().default('http://127.0.0.1:8080'),
});
export type ConsoleConfig = z.infer<typeof ConsoleConfigSchema>;

export const loadConsoleConfig = (env: NodeJS.ProcessEnv = process.env): ConsoleConfig => parseConfig(ConsoleConfigSchema, env);
