import { Prisma, type PrismaClient } from '@mapi/db';
import { reachSql, reachesNothing, type MemberChatAccess } from '../rows/chat-reach';
import type { ChatCopy, ChatPropertyValues, ChatViewRow, GroupMemberRow } from '../rows/chat-rows';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The chats carrying a label, named by id or by name (a UUID-shaped value may be either). */
function labelFilter(orgId: string, label: string): Prisma.Sql {
  const name = label.trim().toLowerCase();
  const match = UUID.test(label.trim())
    ? Prisma.sql`(l.label_id = ${label.trim()}::uuid OR l.label_name = ${name})`
    : Prisma.sql`l.label_name = ${name}`;
  return Prisma.sql`AND c.chat_id IN (SELECT l.chat_id FROM chat_labels l WHERE l.org_id = ${orgId}::uuid AND ${match})`;
}

/** `%text%` for LIKE, its wildcards and escape character taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/** Lower-cased word tokens, as ingestion writes messages.fts (ingest-rows.ts ftsOf). */
const words = (text: string): string => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');

/**
 * The team's filters of GET /chats beyond label (ours): assignee, unread, flagged, search. `inScope`
 * keeps the rows of an alias within the request's reach, so a message or copy of a phone out of reach
 * never decides a match.
 */
function teamFilters(orgId: string, f: ChatFilter, inScope: (alias: string) => Prisma.Sql): Prisma.Sql[] {
  const out: Prisma.Sql[] = [];
  if (f.assignedTo === 'none') {
    out.push(
      Prisma.sql`AND NOT EXISTS (SELECT 1 FROM chat_properties ap WHERE ap.org_id = ${orgId}::uuid AND ap.chat_id = c.chat_id AND ap.assigned_to IS NOT NULL)`,
    );
  } else if (f.assignedTo !== undefined) {
    out.push(
      Prisma.sql`AND EXISTS (SELECT 1 FROM chat_properties ap WHERE ap.org_id = ${orgId}::uuid AND ap.chat_id = c.chat_id AND lower(ap.assigned_to) = ${f.assignedTo.toLowerCase()})`,
    );
  }
  if (f.unread !== undefined) {
    const any = f.readerId
      ? Prisma.sql`EXISTS (SELECT 1 FROM chats u ${readMarkJoin(f.readerId, 'u')}
          WHERE u.org_id = ${orgId}::uuid AND u.chat_id = c.chat_id ${inScope('u')} AND ${memberUnread('u', true)})`
      : Prisma.sql`EXISTS (SELECT 1 FROM chats u WHERE u.org_id = ${orgId}::uuid AND u.chat_id = c.chat_id AND u.unread_count > 0 ${inScope('u')})`;
    out.push(f.unread ? Prisma.sql`AND ${any}` : Prisma.sql`AND NOT ${any}`);
  }
  if (f.openTicket !== undefined) {
    // The inbox's tickets (a declared read: prisma/schema/inbox.prisma, decision 0091), on the (org_id, chat_id) index.
    const any = Prisma.sql`EXISTS (SELECT 1 FROM inbox_tickets t WHERE t.org_id = ${orgId}::uuid AND t.chat_id = c.chat_id
                   AND t.status IN ('open', 'inprogress') AND NOT t.is_deleted ${inScope('t')})`;
    out.push(f.openTicket ? Prisma.sql`AND ${any}` : Prisma.sql`AND NOT ${any}`);
  }
  if (f.flagged !== undefined) {
    const any = Prisma.sql`EXISTS (SELECT 1 FROM messages fm WHERE fm.org_id = ${orgId}::uuid AND fm.chat_id = c.chat_id AND fm.flag_status ${inScope('fm')})`;
    out.push(f.flagged ? Prisma.sql`AND ${any}` : Prisma.sql`AND NOT ${any}`);
  }
  if (f.search !== undefined) {
    const text = f.search.trim();
    const number = text.replace(/\D/g, '');
    const tokens = words(text);
    const either = [
      Prisma.sql`c.chat_name ILIKE ${contains(text)}`,
      Prisma.sql`EXISTS (SELECT 1 FROM contacts ct WHERE ct.org_id = ${orgId}::uuid AND ct.contact_id = c.chat_id
                   AND (ct.contact_name ILIKE ${contains(text)} OR ct.pushname ILIKE ${contains(text)}))`,
      ...(number && /^[\d\s()+-]+$/.test(text) ? [Prisma.sql`split_part(c.chat_id, '@', 1) LIKE ${contains(number)}`] : []),
      ...(tokens
        ? [
            Prisma.sql`EXISTS (SELECT 1 FROM messages sm WHERE sm.org_id = ${orgId}::uuid AND sm.chat_id = c.chat_id
                        AND sm.fts LIKE ${contains(tokens)} ${inScope('sm')})`,
          ]
        : []),
    ];
    out.push(Prisma.sql`AND (${Prisma.join(either, ' OR ')})`);
  }
  return out;
}

/** The member's read mark on the copy `alias` (chats): `mr.read_at`, null when they have none. */
const readMarkJoin = (memberId: string, alias: string) =>
  Prisma.sql`LEFT JOIN chat_member_reads mr ON mr.org_id = ${Prisma.raw(alias)}.org_id AND mr.member_id = ${memberId}::uuid
    AND mr.phone_id = ${Prisma.raw(alias)}.phone_id AND mr.chat_id = ${Prisma.raw(alias)}.chat_id`;

/** Inbound messages after the member's mark counted at most this far (the list shows 99+ long before). */
const MEMBER_UNREAD_CAP = 1000;

/**
 * The member's unread messages on the copy `alias` (joined with readMarkJoin): without a mark the
 * copy's unread_count, else its inbound messages after the mark (messages_org_chat_recent_idx, a
 * range on timestamp). `any`: whether there is one (for the filter) rather than how many.
 */
function memberUnread(alias: string, any: boolean): Prisma.Sql {
  const a = Prisma.raw(alias);
  const after = Prisma.sql`FROM messages um WHERE um.org_id = ${a}.org_id AND um.chat_id = ${a}.chat_id AND um.phone_id = ${a}.phone_id
    AND NOT um.from_me AND um.timestamp > mr.read_at`;
  return any
    ? Prisma.sql`(CASE WHEN mr.read_at IS NULL THEN ${a}.unread_count > 0 ELSE EXISTS (SELECT 1 ${after}) END)`
    : Prisma.sql`(CASE WHEN mr.read_at IS NULL THEN ${a}.unread_count
        ELSE (SELECT count(*) FROM (SELECT 1 ${after} LIMIT ${MEMBER_UNREAD_CAP}) x)::int END)`;
}

export interface ChatFilter {
  /** Phones within reach; null: every phone of the organization. */
  phoneIds: string[] | null;
  /** A member's labels and overrides (rows/chat-reach.ts); absent: phones only. */
  member?: MemberChatAccess | null;
  chatId?: string;
  chatType?: string;
  /** Inclusive bounds on activity_at (ISO). */
  start?: string;
  end?: string;
  /** A label's name (any case) or id: only chats that carry it. */
  label?: string;
  /** An email (lower case) the chat is assigned to, or 'none': assigned to no one. */
  assignedTo?: string;
  /** true: a copy in reach has unread messages; false: none has. */
  unread?: boolean;
  /** true: a message of the chat on a phone in reach is flagged; false: none is. */
  flagged?: boolean;
  /** Text in the chat's name, number or contact's name, or words in one of its messages in reach. */
  search?: string;
  /** true: a ticket of the chat on a phone in reach is open or in progress; false: none is. */
  openTicket?: boolean;
  /** A console member (their member_id): unread (filter and each copy's member_unread) by their read marks. */
  readerId?: string | null;
  /** Keyset: only the chats after this one in the list's order (activity_at, chat_id descending). */
  after?: { at: string; chat_id: string };
  offset: number;
  limit: number;
}

const NO_PROPERTIES: Omit<ChatPropertyValues, 'label_ids'> = { assigned_to: null, custom_properties: {}, override_chat_access: null };

type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };
const date = (v: string | null) => (v === null ? null : new Date(v));

/** Chat reads for the chat object (GET /chats, GET /chats/{chat_id}). The organization is part of every signature. */
export class ChatViewRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * A page of the organization's chats, one per chat id, most recently active first (activity_at,
   * then chat_id, both descending). Read in order from (org_id, activity_at DESC, chat_id DESC); a
   * copy is skipped when another copy of the same chat within reach is more recent (an (org_id,
   * chat_id) probe), so the work grows with offset + limit, not with the organization's chats.
   * Rows come back as one JSON text each (Prisma's raw mapping costs per column and row).
   */
  async list(orgId: string, f: ChatFilter): Promise<ChatViewRow[]> {
    const reach = { phoneIds: f.phoneIds, member: f.member ?? null };
    if (reachesNothing(reach)) return [];
    const inScope = (alias: string) => reachSql(orgId, reach, alias);
    const filters = [
      f.chatId === undefined ? Prisma.empty : Prisma.sql`AND c.chat_id = ${f.chatId}`,
      f.chatType === undefined ? Prisma.empty : Prisma.sql`AND c.chat_type = ${f.chatType}`,
      f.start === undefined ? Prisma.empty : Prisma.sql`AND c.activity_at >= ${f.start}::timestamptz`,
      f.end === undefined ? Prisma.empty : Prisma.sql`AND c.activity_at <= ${f.end}::timestamptz`,
      f.label === undefined ? Prisma.empty : labelFilter(orgId, f.label),
      ...teamFilters(orgId, f, inScope),
      f.after === undefined ? Prisma.empty : Prisma.sql`AND (c.activity_at, c.chat_id) < (${f.after.at}::timestamptz, ${f.after.chat_id})`,
    ];
    const reader = f.readerId ?? null;
    const rows = await this.prisma.$queryRaw<
      {
        j: string;
        copies: string;
        props: string | null;
        labels: string | null;
        settings: string | null;
        flags: number;
        named: string | null;
      }[]
    >`
      WITH page AS (
        SELECT c.org_id, c.phone_id, c.chat_id, c.chat_name, c.chat_type, c.org_phone, c.created_at, c.updated_at,
               c.latest_message_id::text AS latest_message_id, c.latest_message_at, c.activity_at,
               c.group_description, c.info_admins_only, c.messages_admins_only, c.add_members_admins_only
        FROM chats c
        WHERE c.org_id = ${orgId}::uuid ${inScope('c')} ${Prisma.join(filters, ' ')}
          AND NOT EXISTS (
            SELECT 1 FROM chats o
            WHERE o.org_id = c.org_id AND o.chat_id = c.chat_id ${inScope('o')}
              AND (o.activity_at, o.phone_id) > (c.activity_at, c.phone_id))
        ORDER BY c.activity_at DESC, c.chat_id DESC
        OFFSET ${f.offset} LIMIT ${f.limit}
      )
      SELECT row_to_json(p)::text AS j,
        (SELECT json_agg(json_build_object('phone_id', o.phone_id, 'org_phone', o.org_phone, 'unread_count', o.unread_count,
                                           'latest_message_at', o.latest_message_at, 'pinned_messages', o.pinned_messages,
                                           'member_unread', ${reader ? memberUnread('o', false) : Prisma.sql`NULL::int`}) ORDER BY o.phone_id)
         FROM chats o ${reader ? readMarkJoin(reader, 'o') : Prisma.empty}
         WHERE o.org_id = p.org_id AND o.chat_id = p.chat_id ${inScope('o')})::text AS copies,
        (SELECT json_build_object('assigned_to', cp.assigned_to, 'custom_properties', cp.custom_properties, 'override_chat_access', cp.override_chat_access)
         FROM chat_properties cp WHERE cp.org_id = p.org_id AND cp.chat_id = p.chat_id)::text AS props,
        (SELECT json_agg(l.label_id ORDER BY l.label_id) FROM chat_labels l WHERE l.org_id = p.org_id AND l.chat_id = p.chat_id)::text AS labels,
        -- flagged messages in reach (the partial index messages_org_chat_flagged_idx holds only those), a message held by two phones once
        (SELECT count(DISTINCT fm.unique_id) FROM messages fm WHERE fm.org_id = p.org_id AND fm.chat_id = p.chat_id AND fm.flag_status ${inScope('fm')})::int AS flags,
        -- A group's settings are the group's, not a phone's: from the copy that last stored them (the
        -- connector's groups upsert sets add_members_admins_only), since the most active copy may be a
        -- member phone's made from a notification, which carries none (only the column defaults).
        CASE WHEN p.chat_type = 'group' AND p.add_members_admins_only IS NULL THEN
          (SELECT json_build_object('group_description', s.group_description, 'info_admins_only', s.info_admins_only,
                                    'messages_admins_only', s.messages_admins_only, 'add_members_admins_only', s.add_members_admins_only)
           FROM chats s WHERE s.org_id = p.org_id AND s.chat_id = p.chat_id AND s.add_members_admins_only IS NOT NULL ${inScope('s')}
           ORDER BY s.updated_at DESC, s.phone_id LIMIT 1)::text END AS settings,
        -- A one-to-one chat is named after its contact (a primary-key probe): the name the team gave it
        -- (POST /contacts/create, PATCH /contacts), else the phone's name for the chat, else the customer's push name.
        CASE WHEN p.chat_type <> 'group' THEN
          (SELECT COALESCE(NULLIF(ct.contact_name, ''), NULLIF(p.chat_name, ''), NULLIF(ct.pushname, ''))
           FROM contacts ct WHERE ct.org_id = p.org_id AND ct.contact_id = p.chat_id) END AS named
      FROM page p
      ORDER BY p.activity_at DESC, p.chat_id DESC`;
    return rows.map(({ j, copies, props, labels, settings, flags, named }) => {
      const r = JSON.parse(j) as Json<Omit<ChatViewRow, 'copies' | 'properties'>>;
      return {
        ...r,
        chat_name: named ?? r.chat_name,
        ...(settings
          ? (JSON.parse(settings) as Pick<
              ChatViewRow,
              'group_description' | 'info_admins_only' | 'messages_admins_only' | 'add_members_admins_only'
            >)
          : {}),
        created_at: new Date(r.created_at),
        updated_at: new Date(r.updated_at),
        latest_message_at: date(r.latest_message_at),
        activity_at: new Date(r.activity_at),
        copies: (JSON.parse(copies) as Json<ChatCopy>[]).map((c) => ({ ...c, latest_message_at: date(c.latest_message_at) })),
        flag_count: flags,
        properties: {
          ...NO_PROPERTIES,
          ...(props ? (JSON.parse(props) as Omit<ChatPropertyValues, 'label_ids'>) : {}),
          label_ids: labels ? (JSON.parse(labels) as string[]) : [],
        },
      };
    });
  }

  /** The chat as one phone within reach sees it, or null when none has it (or it is another organization's). */
  async findOne(
    orgId: string,
    chatId: string,
    phoneIds: string[] | null,
    member: MemberChatAccess | null = null,
    readerId: string | null = null,
  ): Promise<ChatViewRow | null> {
    const [row] = await this.list(orgId, { phoneIds, member, chatId, readerId, offset: 0, limit: 1 });
    return row ?? null;
  }

  /** Participants of the given (phone, chat) copies, as each phone last saw them. */
  async members(orgId: string, copies: readonly { phone_id: string; chat_id: string }[]): Promise<GroupMemberRow[]> {
    if (!copies.length) return [];
    return this.prisma.$queryRaw<GroupMemberRow[]>`
      SELECT g.phone_id, g.chat_id, g.contact_id, g.is_admin, g.is_super_admin,
             ct.contact_name, ct.pushname, ct.is_internal, ct.labels, ct.is_imported, ct.updated_at AS contact_updated_at
      FROM group_participants g
      JOIN unnest(${copies.map((c) => c.phone_id)}::text[], ${copies.map((c) => c.chat_id)}::text[]) AS k(phone_id, chat_id)
        ON g.phone_id = k.phone_id AND g.chat_id = k.chat_id
      LEFT JOIN contacts ct ON ct.org_id = g.org_id AND ct.contact_id = g.contact_id
      WHERE g.org_id = ${orgId}::uuid
      ORDER BY g.contact_id`;
  }
}
