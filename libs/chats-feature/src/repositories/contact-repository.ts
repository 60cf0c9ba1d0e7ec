import { Prisma, type PrismaClient } from '@mapi/db';
import { reachSql, type MemberChatAccess } from '../rows/chat-reach';
import type { ContactRow } from '../rows/contact-row';

/** What the API may change on a contact (undefined: left as it is). */
export interface ContactChanges {
  contact_name?: string;
  is_internal?: boolean;
  labels?: string[];
}

/** phone_ids overlapping the phones in reach; null reach: every phone of the organization (no filter). */
const inReach = (phoneIds: string[] | null) => (phoneIds ? { phone_ids: { hasSome: phoneIds } } : {});

/**
 * A member's contacts (docs/services/members.md): those they see in a chat within their reach, the
 * contact's 1-1 chat or a group it is a participant of, on a copy within their phones, labels and
 * overrides (rows/chat-reach.ts). Probes of chats (org_id, chat_id, …) and group_participants per row.
 */
function memberContactSql(orgId: string, phoneIds: string[] | null, member: MemberChatAccess, alias = 'ct'): Prisma.Sql {
  const a = Prisma.raw(alias);
  const reach = { phoneIds, member };
  return Prisma.sql`AND (
    EXISTS (SELECT 1 FROM chats c WHERE c.org_id = ${orgId}::uuid AND c.chat_id = ${a}.contact_id ${reachSql(orgId, reach, 'c')})
    OR EXISTS (SELECT 1 FROM group_participants g WHERE g.org_id = ${orgId}::uuid AND g.contact_id = ${a}.contact_id ${reachSql(orgId, reach, 'g')}))`;
}

/**
 * Contacts of the chats service. The organization is part of every signature and every query;
 * `phoneIds` (the phones in reach, null for all) narrows to the contacts those phones have seen;
 * `member` (a member's labels and overrides) to the contacts of chats within their reach.
 */
export class ContactRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** A page ordered by contact_id (the primary key's order within the organization). */
  list(
    orgId: string,
    phoneIds: string[] | null,
    offset: number,
    limit: number,
    member: MemberChatAccess | null = null,
  ): Promise<ContactRow[]> {
    if (member) {
      return this.prisma.$queryRaw<ContactRow[]>`
        SELECT ct.* FROM contacts ct WHERE ct.org_id = ${orgId}::uuid ${memberContactSql(orgId, phoneIds, member)}
        ORDER BY ct.contact_id OFFSET ${offset} LIMIT ${limit}`;
    }
    if (phoneIds && !phoneIds.length) return Promise.resolve([]);
    return this.prisma.contact.findMany({
      where: { org_id: orgId, ...inReach(phoneIds) },
      orderBy: { contact_id: 'asc' },
      skip: offset,
      take: limit,
    });
  }

  async find(
    orgId: string,
    contactId: string,
    phoneIds: string[] | null,
    member: MemberChatAccess | null = null,
  ): Promise<ContactRow | null> {
    if (member) {
      const rows = await this.prisma.$queryRaw<ContactRow[]>`
        SELECT ct.* FROM contacts ct WHERE ct.org_id = ${orgId}::uuid AND ct.contact_id = ${contactId} ${memberContactSql(orgId, phoneIds, member)}`;
      return rows[0] ?? null;
    }
    if (phoneIds && !phoneIds.length) return null;
    return this.prisma.contact.findFirst({ where: { org_id: orgId, contact_id: contactId, ...inReach(phoneIds) } });
  }

  /**
   * The contact's chats on the phones in reach: its 1-1 chat and the groups it is a participant of,
   * each chat id once, sorted.
   */
  async chatIds(orgId: string, contactId: string, phoneIds: string[] | null, member: MemberChatAccess | null = null): Promise<string[]> {
    if (member) {
      const reach = { phoneIds, member };
      const rows = await this.prisma.$queryRaw<{ chat_id: string }[]>`
        SELECT c.chat_id FROM chats c WHERE c.org_id = ${orgId}::uuid AND c.chat_id = ${contactId} ${reachSql(orgId, reach, 'c')}
        UNION SELECT g.chat_id FROM group_participants g WHERE g.org_id = ${orgId}::uuid AND g.contact_id = ${contactId} ${reachSql(orgId, reach, 'g')}`;
      return rows.map((r) => r.chat_id).sort();
    }
    if (phoneIds && !phoneIds.length) return [];
    const phones = phoneIds ? { phone_id: { in: phoneIds } } : {};
    const [direct, groups] = await Promise.all([
      this.prisma.chat.findMany({ where: { org_id: orgId, chat_id: contactId, ...phones }, select: { chat_id: true } }),
      this.prisma.groupParticipant.findMany({ where: { org_id: orgId, contact_id: contactId, ...phones }, select: { chat_id: true } }),
    ]);
    return [...new Set([...direct, ...groups].map((r) => r.chat_id))].sort();
  }

  /** Changes a contact in reach; null (nothing changed) when there is none. */
  async update(
    orgId: string,
    contactId: string,
    phoneIds: string[] | null,
    changes: ContactChanges,
    member: MemberChatAccess | null = null,
  ): Promise<ContactRow | null> {
    if (member) {
      // a member's reach is checked first; the change then applies to the contact as a whole
      if (!(await this.find(orgId, contactId, phoneIds, member))) return null;
      return this.update(orgId, contactId, null, changes);
    }
    if (phoneIds && !phoneIds.length) return null;
    const { count } = await this.prisma.contact.updateMany({
      where: { org_id: orgId, contact_id: contactId, ...inReach(phoneIds) },
      data: { ...changes, updated_at: new Date() },
    });
    return count ? this.prisma.contact.findUnique({ where: { org_id_contact_id: { org_id: orgId, contact_id: contactId } } }) : null;
  }

  /**
   * Replaces the labels of every contact given, all or nothing: false (nothing changed) when any of
   * them is not a contact in reach. The check and the change share one transaction, with the rows locked.
   */
  async relabel(
    orgId: string,
    contactIds: string[],
    phoneIds: string[] | null,
    labels: string[],
    member: MemberChatAccess | null = null,
  ): Promise<boolean> {
    if (!member && phoneIds && !phoneIds.length) return false;
    const ids = [...new Set(contactIds)].sort();
    const narrow = member
      ? memberContactSql(orgId, phoneIds, member)
      : Prisma.sql`AND (${phoneIds === null} OR ct.phone_ids && ${phoneIds ?? []}::text[])`;
    return this.prisma.$transaction(async (tx) => {
      const found = await tx.$queryRaw<{ contact_id: string }[]>`
        SELECT ct.contact_id FROM contacts ct
        WHERE ct.org_id = ${orgId}::uuid AND ct.contact_id = ANY(${ids}::text[]) ${narrow}
        ORDER BY ct.contact_id FOR UPDATE OF ct`;
      if (found.length !== ids.length) return false;
      await tx.contact.updateMany({ where: { org_id: orgId, contact_id: { in: ids } }, data: { labels, updated_at: new Date() } });
      return true;
    });
  }

  /**
   * Creates the contact, or names an existing one of the organization (a retried create answers
   * the same contact): the API's name, is_internal and labels when given, and the creating phones
   * join its phone_ids. One statement, so concurrent creates of one contact do not collide.
   */
  async create(
    orgId: string,
    contactId: string,
    phoneIds: string[],
    values: Required<Pick<ContactChanges, 'contact_name'>> & ContactChanges,
  ): Promise<ContactRow> {
    const rows = await this.prisma.$queryRaw<ContactRow[]>`
      INSERT INTO contacts AS c (org_id, contact_id, contact_name, is_internal, labels, phone_ids, is_imported, created_at, updated_at)
      VALUES (${orgId}::uuid, ${contactId}, ${values.contact_name}, ${values.is_internal ?? false}, ${values.labels ?? []}::text[],
              ${[...new Set(phoneIds)].sort()}::text[], true, now(), now())
      ON CONFLICT (org_id, contact_id) DO UPDATE SET
        contact_name = EXCLUDED.contact_name,
        is_internal = CASE WHEN ${values.is_internal === undefined} THEN c.is_internal ELSE EXCLUDED.is_internal END,
        labels = CASE WHEN ${values.labels === undefined} THEN c.labels ELSE EXCLUDED.labels END,
        phone_ids = ARRAY(SELECT DISTINCT p FROM unnest(c.phone_ids || EXCLUDED.phone_ids) AS p ORDER BY p),
        is_imported = true,
        updated_at = now()
      RETURNING c.*`;
    return rows[0];
  }
}
