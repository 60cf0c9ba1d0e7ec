/** A stored contact, as `contacts` holds it. */
export interface ContactRow {
  org_id: string;
  contact_id: string;
  contact_name: string | null;
  pushname: string | null;
  is_internal: boolean;
  labels: string[];
  phone_ids: string[];
  is_imported: boolean;
  created_at: Date;
  updated_at: Date;
}
