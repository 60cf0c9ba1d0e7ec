import type { IngestMessage } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';

type Tx = Prisma.TransactionClient;
type Seen = { org_id: string; phone_id: string; org_phone: string; messages: readonly IngestMessage[] };

/** A contact as a batch saw it: on which phones, and the newest name the network gave. */
export interface ContactSeen {
  org_id: string;
  contact_id: string;
  pushname: string | null;
  phone_ids: string[];
}

const PERSON = /^[0-9]{6,20}@c\.us$/;

/**
 * The contacts a batch shows, one entry per (organization, contact id), sorted (so concurrent
 * batches lock rows in the same order): every sender of a message not sent by the phone, and the
 * partner of every 1-1 chat. A sender's name is the one the network gave with its latest message
 * in the batch. The phone's own number is not a contact. Pure, so it is unit-tested.
 */
export function contactsSeen(upserts: readonly Seen[]): ContactSeen[] {
  const seen = new Map<string, ContactSeen>();
  const add = (e: Seen, contactId: string, name: string | null) => {
    if (!PERSON.test(contactId) || contactId === e.org_phone) return;
    const key = `${e.org_id}\u0000${contactId}`;
    let c = seen.get(key);
    if (!c) seen.set(key, (c = { org_id: e.org_id, contact_id: contactId, pushname: null, phone_ids: [] }));
    if (!c.phone_ids.includes(e.phone_id)) c.phone_ids.push(e.phone_id);
    if (name) c.pushname = name;
  };
  for (const e of upserts) {
    for (const m of e.messages) {
      const name = m.sender_name?.trim() || null;
      if (!m.from_me) add(e, m.sender_phone, name);
      add(e, m.chat_id, null); // a 1-1 chat's partner (a group id is not a contact)
    }
  }
  return [...seen.values()]
    .map((c) => ({ ...c, phone_ids: c.phone_ids.sort() }))
    .sort((a, b) => (a.org_id === b.org_id ? (a.contact_id < b.contact_id ? -1 : 1) : a.org_id < b.org_id ? -1 : 1));
}

// One statement per batch. A row changes only when the batch brings something new (a new or
// different push name, a phone not listed yet): a redelivered batch writes nothing. The API's name
// (contact_name) is never written here, so a push name cannot overwrite it.
const LEARN = `INSERT INTO contacts AS c (org_id, contact_id, pushname, phone_ids, created_at, updated_at)
  SELECT x.org_id, x.contact_id, x.pushname, ARRAY(SELECT jsonb_array_elements_text(x.phone_ids)), now(), now()
  FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, contact_id text, pushname text, phone_ids jsonb)
  ORDER BY x.org_id, x.contact_id
  ON CONFLICT (org_id, contact_id) DO UPDATE SET
    pushname = COALESCE(EXCLUDED.pushname, c.pushname),
    phone_ids = ARRAY(SELECT DISTINCT p FROM unnest(c.phone_ids || EXCLUDED.phone_ids) AS p ORDER BY p),
    updated_at = now()
  WHERE (EXCLUDED.pushname IS NOT NULL AND EXCLUDED.pushname IS DISTINCT FROM c.pushname)
     OR NOT (COALESCE(c.phone_ids, '{}') @> EXCLUDED.phone_ids)`;

/** Keeps the contacts of a batch's messages (senders and 1-1 partners, with their push names), in one statement. */
export async function learnContacts(tx: Tx, upserts: readonly Seen[]): Promise<void> {
  const contacts = contactsSeen(upserts);
  if (contacts.length) await tx.$executeRawUnsafe(LEARN, JSON.stringify(contacts));
}
