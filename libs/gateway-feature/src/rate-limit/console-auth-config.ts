import { envBool } from '@mapi/platform';
import { z } from 'zod';

const int = (def: number) => z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().default(def));

/** The console's sign-in settings of the gateway (docs/operations.md, "Members and SMTP"). */
export const ConsoleAuthConfigSchema = z.object({
  /** Failed sign-ins of one address (email) within the window before 429. */
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT: int(5),
  /** Failed sign-ins from one client address (IP) within the window before 429. */
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: int(20),
  SIGN_IN_WINDOW_SECONDS: int(900),
  /** The Secure attribute on the session cookies; false only to try the console over plain http on another host than localhost. */
  SESSION_COOKIE_SECURE: envBool(true),
});
export type ConsoleAuthConfig = z.infer<typeof ConsoleAuthConfigSchema>;
