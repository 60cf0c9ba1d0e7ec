import { Prisma, queryRows, type PrismaClient } from '@mapi/db';
import { reachSql, reachesNothing } from '../chats/chat-reach';
import { messageReadyLateral, messageReadySelect } from '../messages/message-api-sql';
import { DEFERRED_JOIN_FROM_OFFSET, type OrgPage } from './message-repository';

/**
 * The SQL of a GET /chats/messages page (null when it reaches nothing): every chat of the
 * organization within reach, newest first (timestamp, then insertion order), each message already
 * written as JSON.stringify writes the spec's message object (`j`, where `ok`: message-api-sql.ts's
 * messageReadySelect). Served by the (org_id, timestamp, id) INCLUDE
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
        SELECT ${messageReadySelect} FROM messages m CROSS JOIN ${messageReadyLateral} WHERE ${where}
        ORDER BY m."timestamp" DESC, m.id DESC OFFSET ${page.offset} LIMIT ${page.limit}`
    : Prisma.sql`
        WITH ids AS (
          SELECT m.id, m."timestamp" FROM messages m WHERE ${where}
          ORDER BY m."timestamp" DESC, m.id DESC OFFSET ${page.offset} LIMIT ${page.limit})
        SELECT ${messageReadySelect} FROM ids JOIN messages m ON m.id = ids.id CROSS JOIN ${messageReadyLateral}
        ORDER BY ids."timestamp" DESC, ids.id DESC`;
}

/** GET /chats/messages' read. The organization is part of every signature. */
export class AllMessagesRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * A page of the organization's messages, each as the JSON text JSON.stringify writes for the spec's
   * message object (byte for byte what it writes of mapMessage over MessageRepository.listAll's rows:
   * chats-read-api-sql.int-spec.ts): Postgres writes them, the few rows it cannot vouch for (`ok`
   * false) are parsed and stringified here. Read on the pg pool (queryRows).
   */
  async listReady(orgId: string, page: OrgPage): Promise<string[]> {
    const sql = allMessagesPageSql(orgId, page);
    if (!sql) return [];
    const rows = await queryRows<{ j: string; ok: boolean }>(this.prisma, sql);
    return rows.map((r) => (r.ok ? r.j : JSON.stringify(JSON.parse(r.j))));
  }
}
