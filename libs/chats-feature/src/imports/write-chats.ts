import type { Prisma } from '@mapi/db';

type Tx = Prisma.TransactionClient;

/** What an import keeps of one phone's copy of a chat (the chats columns it writes). */
export interface ImportedChatCopy {
  phone_id: string;
  chat_id: string;
  chat_name: string | null;
  chat_type: string;
  org_phone: string | null;
  group_description: string | null;
  info_admins_only: boolean;
  messages_admins_only: boolean;
  add_members_admins_only: boolean | null;
  pinned_messages: unknown;
}

/** A copy to write: its values, and what only a new row takes (the source's creation time, unread count). */
export interface ChatCopyWrite extends ImportedChatCopy {
  created_at: string;
  unread_count: number;
}

/** The organization's values on a chat (chat_properties and chat_labels). */
export interface ImportedChatValues {
  chat_id: string;
  assigned_to: string | null;
  custom_properties: Record<string, string>;
  /** label_id → lower-case name, sorted by id */
  labels: [string, string][];
}

const keys = (rows: { phone_id: string; chat_id: string }[]) =>
  JSON.stringify(rows.map(({ phone_id, chat_id }) => ({ phone_id, chat_id })));

/** The stored copies among the given (phone, chat) keys, locked (applyPin changes pins under the same lock). */
export async function storedCopies(tx: Tx, orgId: string, copies: { phone_id: string; chat_id: string }[]): Promise<ImportedChatCopy[]> {
  if (!copies.length) return [];
  return tx.$queryRawUnsafe<ImportedChatCopy[]>(
    `SELECT c.phone_id, c.chat_id, c.chat_name, c.chat_type, c.org_phone, c.group_description, c.info_admins_only,
            c.messages_admins_only, c.add_members_admins_only, c.pinned_messages
     FROM chats c JOIN (SELECT DISTINCT phone_id, chat_id FROM jsonb_to_recordset($2::jsonb) AS k(phone_id text, chat_id text)) k
       ON c.phone_id = k.phone_id AND c.chat_id = k.chat_id
     WHERE c.org_id = $1::uuid ORDER BY c.phone_id, c.chat_id FOR UPDATE OF c`,
    orgId,
    keys(copies),
  );
}

/** The organization's values on the given chats (chats without any: absent). */
export async function storedValues(tx: Tx, orgId: string, chatIds: string[]): Promise<Map<string, ImportedChatValues>> {
  const out = new Map<string, ImportedChatValues>();
  if (!chatIds.length) return out;
  const props = await tx.$queryRaw<{ chat_id: string; assigned_to: string | null; custom_properties: Record<string, string> | null }[]>`
    SELECT chat_id, assigned_to, custom_properties FROM chat_properties
    WHERE org_id = ${orgId}::uuid AND chat_id = ANY(${chatIds}::text[]) ORDER BY chat_id FOR UPDATE`;
  for (const p of props)
    out.set(p.chat_id, { chat_id: p.chat_id, assigned_to: p.assigned_to, custom_properties: p.custom_properties ?? {}, labels: [] });
  const labels = await tx.$queryRaw<{ chat_id: string; label_id: string; label_name: string }[]>`
    SELECT chat_id, label_id::text AS label_id, label_name FROM chat_labels
    WHERE org_id = ${orgId}::uuid AND chat_id = ANY(${chatIds}::text[]) ORDER BY chat_id, label_id`;
  for (const l of labels) {
    let v = out.get(l.chat_id);
    if (!v) out.set(l.chat_id, (v = { chat_id: l.chat_id, assigned_to: null, custom_properties: {}, labels: [] }));
    v.labels.push([l.label_id, l.label_name]);
  }
  return out;
}

// New copies start with the source's creation time as their activity (messages move it on).
const WRITE_COPIES = `INSERT INTO chats AS c (org_id, phone_id, chat_id, chat_name, chat_type, org_phone, created_at, updated_at, activity_at,
    unread_count, group_description, info_admins_only, messages_admins_only, add_members_admins_only, pinned_messages)
  SELECT $1::uuid, x.phone_id, x.chat_id, x.chat_name, x.chat_type, x.org_phone, x.created_at, now(), x.created_at,
    x.unread_count, x.group_description, x.info_admins_only, x.messages_admins_only, x.add_members_admins_only, x.pinned_messages
  FROM jsonb_to_recordset($2::jsonb) AS x(phone_id text, chat_id text, chat_name text, chat_type text, org_phone text, created_at timestamptz,
    unread_count int, group_description text, info_admins_only boolean, messages_admins_only boolean, add_members_admins_only boolean, pinned_messages jsonb)
  ORDER BY x.phone_id, x.chat_id
  ON CONFLICT (phone_id, chat_id) DO UPDATE SET
    chat_name = EXCLUDED.chat_name, chat_type = EXCLUDED.chat_type, org_phone = EXCLUDED.org_phone,
    group_description = EXCLUDED.group_description, info_admins_only = EXCLUDED.info_admins_only,
    messages_admins_only = EXCLUDED.messages_admins_only, add_members_admins_only = EXCLUDED.add_members_admins_only,
    pinned_messages = EXCLUDED.pinned_messages, updated_at = now()
  WHERE c.org_id = EXCLUDED.org_id`;

const WRITE_PROPERTIES = `INSERT INTO chat_properties AS p (org_id, chat_id, assigned_to, custom_properties, updated_at)
  SELECT $1::uuid, x.chat_id, x.assigned_to, x.custom_properties, now()
  FROM jsonb_to_recordset($2::jsonb) AS x(chat_id text, assigned_to text, custom_properties jsonb) ORDER BY x.chat_id
  ON CONFLICT (org_id, chat_id) DO UPDATE SET assigned_to = EXCLUDED.assigned_to, custom_properties = EXCLUDED.custom_properties, updated_at = now()`;

const DROP_LABELS = `DELETE FROM chat_labels WHERE org_id = $1::uuid AND chat_id = ANY(ARRAY(SELECT jsonb_array_elements_text($2::jsonb)))`;
const ADD_LABELS = `INSERT INTO chat_labels (org_id, chat_id, label_id, label_name)
  SELECT $1::uuid, x.chat_id, x.label_id, x.label_name FROM jsonb_to_recordset($2::jsonb) AS x(chat_id text, label_id uuid, label_name text)`;

/** A group participant as one phone's copy keeps it. */
export interface ImportedParticipant {
  phone_id: string;
  chat_id: string;
  contact_id: string;
  is_admin: boolean;
  is_super_admin: boolean;
}

/** The stored participants of the given copies. */
export async function storedParticipants(
  tx: Tx,
  orgId: string,
  copies: { phone_id: string; chat_id: string }[],
): Promise<ImportedParticipant[]> {
  if (!copies.length) return [];
  return tx.$queryRawUnsafe<ImportedParticipant[]>(
    `SELECT g.phone_id, g.chat_id, g.contact_id, g.is_admin, g.is_super_admin
     FROM group_participants g JOIN (SELECT DISTINCT phone_id, chat_id FROM jsonb_to_recordset($2::jsonb) AS k(phone_id text, chat_id text)) k
       ON g.phone_id = k.phone_id AND g.chat_id = k.chat_id
     WHERE g.org_id = $1::uuid`,
    orgId,
    keys(copies),
  );
}

// Participants are added or their flags set; none is removed (the connector's groups upsert does that
// when the phone reconnects and reports the group as it is).
const WRITE_PARTICIPANTS = `INSERT INTO group_participants AS g (phone_id, chat_id, contact_id, org_id, is_admin, is_super_admin, updated_at)
  SELECT x.phone_id, x.chat_id, x.contact_id, $1::uuid, x.is_admin, x.is_super_admin, now()
  FROM jsonb_to_recordset($2::jsonb) AS x(phone_id text, chat_id text, contact_id text, is_admin boolean, is_super_admin boolean)
  ORDER BY x.phone_id, x.chat_id, x.contact_id
  ON CONFLICT (phone_id, chat_id, contact_id) DO UPDATE SET is_admin = EXCLUDED.is_admin, is_super_admin = EXCLUDED.is_super_admin, updated_at = now()
  WHERE g.org_id = EXCLUDED.org_id`;

export async function writeParticipants(tx: Tx, orgId: string, participants: ImportedParticipant[]): Promise<void> {
  if (participants.length) await tx.$executeRawUnsafe(WRITE_PARTICIPANTS, orgId, JSON.stringify(participants));
}

/** Writes the new and changed copies, and the organization's values of the chats whose values changed. */
export async function writeChats(tx: Tx, orgId: string, copies: ChatCopyWrite[], values: ImportedChatValues[]): Promise<void> {
  if (copies.length) await tx.$executeRawUnsafe(WRITE_COPIES, orgId, JSON.stringify(copies));
  if (!values.length) return;
  await tx.$executeRawUnsafe(
    WRITE_PROPERTIES,
    orgId,
    JSON.stringify(values.map(({ chat_id, assigned_to, custom_properties }) => ({ chat_id, assigned_to, custom_properties }))),
  );
  await tx.$executeRawUnsafe(DROP_LABELS, orgId, JSON.stringify(values.map((v) => v.chat_id)));
  const labels = values.flatMap((v) => v.labels.map(([label_id, label_name]) => ({ chat_id: v.chat_id, label_id, label_name })));
  if (labels.length) await tx.$executeRawUnsafe(ADD_LABELS, orgId, JSON.stringify(labels));
}
