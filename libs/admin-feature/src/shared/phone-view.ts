import type { Prisma } from '@mapi/db';

/** What the admin tools show of a phone (the "Phone object" of the wider API). */
export interface PhoneView {
  phone_id: string;
  org_id: string;
  /** null until the phone is first paired */
  org_phone: string | null;
  phone_name: string | null;
  wa_state: string;
  is_ready: boolean;
  connector: string;
  created_at: Date;
}

export function toPhoneView(row: Prisma.PhoneModel): PhoneView {
  return {
    phone_id: row.phone_id,
    org_id: row.org_id,
    org_phone: row.org_phone,
    phone_name: row.phone_name,
    wa_state: row.wa_state,
    is_ready: row.is_ready,
    connector: row.connector,
    created_at: row.created_at,
  };
}
