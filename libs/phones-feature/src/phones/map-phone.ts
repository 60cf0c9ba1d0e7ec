import type { Phone } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';

/** The one place a phone row becomes the API's phone object. */
export function mapPhone(row: Prisma.PhoneModel): Phone {
  return {
    phone_id: row.phone_id,
    org_id: row.org_id,
    org_phone: row.org_phone,
    phone_name: row.phone_name,
    phone_image: row.phone_image,
    labels: row.labels,
    is_ready: row.is_ready,
    wa_state: row.wa_state,
    qr_code: row.qr_code,
    first_connected_at: row.first_connected_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    sync_status: row.sync_status as Phone['sync_status'],
    sync_progress: row.sync_progress,
    last_synced_at: row.last_synced_at?.toISOString() ?? null,
  };
}
