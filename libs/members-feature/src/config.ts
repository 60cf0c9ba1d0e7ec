import { envBool, parseConfig } from '@mapi/platform';
import { z } from 'zod';

const int = (def: number) => z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().default(def));
const bool = envBool;

/** The members service's own settings (docs/operations.md, "Members and SMTP"). */
export const MembersConfigSchema = z
  .object({
    /** Where the console is served: invitation links are `<CONSOLE_BASE_URL>/accept-invite#token=…`. */
    CONSOLE_BASE_URL: z.url().default('http://localhost:8080/console'),
    INVITE_TTL_HOURS: int(72),
    SESSION_TTL_SECONDS: int(12 * 3600),
    /** Without SMTP_HOST no mail is sent: invitation links go back to the inviter. */
    SMTP_HOST: z.string().optional(),
    SMTP_PORT: int(587),
    /** true: TLS from the first byte (port 465); false: STARTTLS when the server offers it. */
    SMTP_SECURE: bool(false),
    SMTP_USER: z.string().optional(),
    SMTP_PASSWORD: z.string().optional(),
    SMTP_FROM: z.string().optional(),
    /** false only for a test server with a self-signed certificate. */
    SMTP_TLS_REJECT_UNAUTHORIZED: bool(true),
  })
  .superRefine((c, ctx) => {
    if (c.SMTP_HOST && !c.SMTP_FROM)
      ctx.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'SMTP_FROM is required when SMTP_HOST is set' });
    if (c.SMTP_USER && !c.SMTP_PASSWORD)
      ctx.addIssue({ code: 'custom', path: ['SMTP_PASSWORD'], message: 'SMTP_PASSWORD is required when SMTP_USER is set' });
  });
export type MembersConfig = z.infer<typeof MembersConfigSchema>;

export const loadMembersConfig = (env: NodeJS.ProcessEnv = process.env): MembersConfig => parseConfig(MembersConfigSchema, env);
