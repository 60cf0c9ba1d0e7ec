import type { Message } from '@mapi/contracts';
import { Prisma, queryRows, type PrismaClient } from '@mapi/db';
import { reachSql, reachesNothing } from '../chats/chat-reach';
import { messageApiJson, messageApiLateral } from '../messages/message-api-sql';
import { DEFERRED_JOIN_FROM_OFFSET, type OrgPage } from './message-repository';

/**
 * The SQL of a GET /chats/messages page (null when it reaches nothing): every chat of the
 * organization within reach, newest first (timestamp, then insertion order), each message already
 * the spec's message object (message-api-sql.ts). Served by the (org_id, timestamp, id) INCLUDE
 * (phone_id) index; from DEFERRED_JOIN_FROM_OFFSET on, the offset is walked in the index alone (ids
 * only) and just the page's rows are read — the same SQL as MessageRepository.listAll's but for the
 * select list (kept apart from it only while that file is being changed on another branch).
 */
export function allMessagesPageSql(orgId: string, page: OrgPage): Prisma.Sql | null {
  const reach = { phoneIds: page.phoneIds, member: page.member ?? null };
  if (reachesNothing(reach)) return null;
  const where = Prisma.sql`m.org_id = ${orgId}::uuid
    ${page.start ? Prisma.sql`AND m."timestamp" >= ${page.start}::timestamptz` : Prisma.empty}
    ${page.end ? Prisma.sql`AND m."timestamp" <= ${page.end}::timestamptz` : Prisma.empty}
    ${reachSql(orgId, reach, 'm')}`;
  return page.offset < DEFERRED_JOIN_FROM_OFFSET
    ? Prisma.sql`
        SELECT ${messageApiJson} AS j FROM messages m CROSS JOIN ${messageApiLateral} WHERE ${where}
        ORDER BY m."timestamp" DESC, m.id DESC OFFSET ${page.offset} LIMIT ${page.limit}`
    : Prisma.sql`
        WITH ids AS (
          SELECT m.id, m."timestamp" FROM messages m WHERE ${where}
          ORDER BY m."timestamp" DESC, m.id DESC OFFSET ${page.offset} LIMIT ${page.limit})
        SELECT ${messageApiJson} AS j FROM ids JOIN messages m ON m.id = ids.id CROSS JOIN ${messageApiLateral}
        ORDER BY ids."timestamp" DESC, ids.id DESC`;
}

/** GET /chats/messages' read. The organization is part of every signature. */
export class AllMessagesRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * A page of the organization's messages as the spec's message objects (byte for byte what
   * mapMessage gives of MessageRepository.listAll's rows: all-messages-repository.int-spec.ts), read
   * on the pg pool (queryRows): the service neither revives nor maps the rows.
   */
  async list(orgId: string, page: OrgPage): Promise<Message[]> {
    const sql = allMessagesPageSql(orgId, page);
    if (!sql) return [];
    const rows = await queryRows<{ j: string }>(this.prisma, sql);
    return rows.map((r) => JSON.parse(r.j) as Message);
  }
}
