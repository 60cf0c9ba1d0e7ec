import { z } from 'zod';

/** The phone object of the wider API (../shared/reference/wider-api.md "Phone object"), plus resync progress. */
export const PhoneSchema = z.object({
  phone_id: z.string(),
  org_id: z.uuid(),
  /** `<digits>@c.us`; null until the phone is first paired by QR */
  org_phone: z.string().nullable(),
  phone_name: z.string().nullable(),
  phone_image: z.string().nullable(),
  labels: z.array(z.string()),
  is_ready: z.boolean(),
  /** UNPAIRED | QR | CONNECTED | DISCONNECTED | UNREACHABLE | LOGGED_OUT | BANNED */
  wa_state: z.string(),
  qr_code: z.string().nullable(),
  first_connected_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  sync_status: z.enum(['idle', 'running', 'failed']),
  sync_progress: z.number().int().min(0).max(100),
  last_synced_at: z.string().nullable(),
});
export type Phone = z.infer<typeof PhoneSchema>;

export const WaState = {
  UNPAIRED: 'UNPAIRED',
  QR: 'QR',
  CONNECTED: 'CONNECTED',
  DISCONNECTED: 'DISCONNECTED',
  UNREACHABLE: 'UNREACHABLE',
  LOGGED_OUT: 'LOGGED_OUT',
  /** the network banned or restricted the number */
  BANNED: 'BANNED',
} as const;
export type WaState = (typeof WaState)[keyof typeof WaState];
