import type { Contact } from '@mapi/contracts';
import type { ContactRow } from '../rows/contact-row';

/**
 * A stored contact as the API's contact object (`ContactType` of @periskope/types). The name set
 * through the API wins over the network's push name in `contact_name`; both stay visible on their
 * own (`periskope_name`, `pushname`). What this service does not keep is null. `chat_ids` is given
 * by the single-contact answers only.
 */
export function mapContact(row: ContactRow, chatIds?: string[]): Contact {
  const number = row.contact_id.replace(/@c\.us$/, '');
  return {
    business_profile: null,
    contact_color: null,
    contact_id: row.contact_id,
    contact_image: null,
    contact_lid: null,
    contact_name: row.contact_name ?? row.pushname,
    contact_type: 'user',
    id: null,
    is_blocked: null,
    is_business: null,
    is_enterprise: null,
    is_group: false,
    is_imported: row.is_imported,
    is_internal: row.is_internal,
    is_me: false,
    is_my_contact: null,
    is_user: true,
    is_wa_contact: null,
    label_ids: Object.fromEntries(row.labels.map((l) => [l, true])),
    labels: [...row.labels],
    name: row.contact_name,
    number,
    org_id: row.org_id,
    periskope_name: row.contact_name,
    pushname: row.pushname,
    short_name: null,
    updated_at: new Date(row.updated_at).toISOString(),
    verified_level: null,
    verified_name: null,
    chats: null,
    ...(chatIds ? { chat_ids: chatIds } : {}),
  };
}
