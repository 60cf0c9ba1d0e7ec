import type { Prisma } from '@mapi/db';

type Tx = Prisma.TransactionClient;

/** What an import keeps of a contact (contacts' columns; phone_ids are ingestion's, learned from messages). */
export interface ImportedContact {
  contact_id: string;
  contact_name: string | null;
  pushname: string | null;
  is_internal: boolean;
  labels: string[];
  is_imported: boolean;
}

/** The organization's stored contacts among the given ids, with the columns an import compares. */
export async function storedContacts(tx: Tx, orgId: string, contactIds: string[]): Promise<Map<string, ImportedContact>> {
  if (!contactIds.length) return new Map();
  const rows = await tx.$queryRaw<ImportedContact[]>`
    SELECT contact_id, contact_name, pushname, is_internal, labels, is_imported FROM contacts
    WHERE org_id = ${orgId}::uuid AND contact_id = ANY(${contactIds}::text[])
    ORDER BY contact_id FOR UPDATE`;
  return new Map(rows.map((r) => [r.contact_id, r]));
}

// One statement for a batch's new and changed contacts (sorted: concurrent writers lock in one order).
const WRITE = `INSERT INTO contacts AS c (org_id, contact_id, contact_name, pushname, is_internal, labels, is_imported, created_at, updated_at)
  SELECT $1::uuid, x.contact_id, x.contact_name, x.pushname, x.is_internal, ARRAY(SELECT jsonb_array_elements_text(x.labels)), x.is_imported, now(), now()
  FROM jsonb_to_recordset($2::jsonb) AS x(contact_id text, contact_name text, pushname text, is_internal boolean, labels jsonb, is_imported boolean)
  ORDER BY x.contact_id
  ON CONFLICT (org_id, contact_id) DO UPDATE SET
    contact_name = EXCLUDED.contact_name, pushname = EXCLUDED.pushname, is_internal = EXCLUDED.is_internal,
    labels = EXCLUDED.labels, is_imported = EXCLUDED.is_imported, updated_at = now()`;

/** Writes the given contacts of the organization (created, or their values replaced). */
export async function writeContacts(tx: Tx, orgId: string, contacts: ImportedContact[]): Promise<void> {
  if (contacts.length) await tx.$executeRawUnsafe(WRITE, orgId, JSON.stringify(contacts));
}
