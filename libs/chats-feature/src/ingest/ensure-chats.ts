import { isGroupChatId } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { mapChat } from '../chats/map-chat';
import type { OutEvent } from './out-event';

type Tx = Prisma.TransactionClient;
export interface ChatSeen {
  org_id: string;
  phone_id: string;
  /** The phone's contact id (into chat.created, and chats.org_phone for the chat object). */
  org_phone: string;
  chat_id: string;
  chat_name: string | null;
  chat_type: string;
}
interface ChatRow extends Omit<ChatSeen, 'org_phone'> {
  created_at: Date;
  updated_at: Date;
}

// One statement for a whole batch, across phones (Prisma's createManyAndReturn compiles a plan per call,
// too costly on the ingestion's hot path). Known chats are skipped; only new ones come back.
const INSERT_CHATS = `INSERT INTO chats (org_id, phone_id, chat_id, chat_name, chat_type, org_phone)
  SELECT DISTINCT ON (x.phone_id, x.chat_id) x.org_id, x.phone_id, x.chat_id, x.chat_name, x.chat_type, NULLIF(x.org_phone, '')
  FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, chat_id text, chat_name text, chat_type text, org_phone text)
  ORDER BY x.phone_id, x.chat_id, x.chat_name NULLS LAST
  ON CONFLICT (phone_id, chat_id) DO NOTHING
  RETURNING org_id, phone_id, chat_id, chat_name, chat_type, created_at, updated_at`;

// A name the connector reports replaces the stored one (chats-upsert and groups-upsert carry names).
const RENAME_CHATS = `UPDATE chats c SET chat_name = x.chat_name, updated_at = now()
  FROM jsonb_to_recordset($1::jsonb) AS x(phone_id text, chat_id text, chat_name text)
  WHERE c.phone_id = x.phone_id AND c.chat_id = x.chat_id AND c.chat_name IS DISTINCT FROM x.chat_name`;

/** A chat a message arrived in, before the connector has told its name. */
export function chatOfMessage(who: { org_id: string; phone_id: string; org_phone: string }, chatId: string): ChatSeen {
  return {
    org_id: who.org_id,
    phone_id: who.phone_id,
    org_phone: who.org_phone,
    chat_id: chatId,
    chat_name: null,
    chat_type: isGroupChatId(chatId) ? 'group' : 'user',
  };
}

/** Stores chats not seen before (emitting chat.created, with the whole chat object, for each) and renames known ones. */
export async function ensureChats(tx: Tx, chats: ChatSeen[], out: OutEvent[]): Promise<void> {
  if (!chats.length) return;
  const created = await tx.$queryRawUnsafe<ChatRow[]>(INSERT_CHATS, JSON.stringify(chats));
  const orgPhones = new Map(chats.map((c) => [c.phone_id, c.org_phone]));
  for (const c of created) {
    const data = mapChat({ ...c, org_phone: orgPhones.get(c.phone_id) ?? '' });
    out.push({ type: 'chat.created', org_id: c.org_id, phone_id: c.phone_id, data });
  }
  const named = new Map(chats.filter((c) => c.chat_name).map((c) => [`${c.phone_id}\u0000${c.chat_id}`, c]));
  if (named.size)
    await tx.$executeRawUnsafe(
      RENAME_CHATS,
      JSON.stringify([...named.values()].map(({ phone_id, chat_id, chat_name }) => ({ phone_id, chat_id, chat_name }))),
    );
}
