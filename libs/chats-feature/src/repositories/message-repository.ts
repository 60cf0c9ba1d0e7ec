import { Prisma, queryRows, type PrismaClient } from '@mapi/db';
import { reachSql, reachesNothing, type MemberChatAccess } from '../rows/chat-reach';
import { messageFromJson } from '../rows/message-json';
import type { MessageRow } from '../rows/message-row';
import { messageApiJson, messageApiLateral, messageReadyLateral, messageReadySelect } from '../rows/message-api-sql';

export interface ChatPage {
  chatId: string;
  /** Phones whose copies to read; null: every phone of the organization. */
  phoneIds: string[] | null;
  /** A member's labels and overrides (rows/chat-reach.ts); absent: phones only. */
  member?: MemberChatAccess | null;
  offset: number;
  limit: number;
}

export interface OrgPage {
  /** Phones whose copies to read; null: every phone of the organization. */
  phoneIds: string[] | null;
  /** A member's labels and overrides (rows/chat-reach.ts); absent: phones only. */
  member?: MemberChatAccess | null;
  /** Inclusive bounds on the message timestamp (ISO). */
  start?: string;
  end?: string;
  offset: number;
  limit: number;
}

/** `AND m.phone_id = ANY(...)` for a phone scope (nothing for every phone), with a member's labels and overrides. */
const inReach = (orgId: string, page: { phoneIds: string[] | null; member?: MemberChatAccess | null }) =>
  reachSql(orgId, { phoneIds: page.phoneIds, member: page.member ?? null }, 'm');
const nothing = (page: { phoneIds: string[] | null; member?: MemberChatAccess | null }) =>
  reachesNothing({ phoneIds: page.phoneIds, member: page.member ?? null });

/** From this offset on, pages are read with a deferred join (see listByChat). */
export const DEFERRED_JOIN_FROM_OFFSET = 1_000;

/**
 * What a page row is read as: the stored row (`row_to_json(m)`, revived by messageFromJson), the
 * spec's message object (message-api-sql.ts), or that object as JSON.stringify writes it with `ok`
 * saying where it is (`ready`, message-api-sql.ts's messageReadySelect).
 */
export type PageRowShape = 'row' | 'api' | 'ready';

const selectOf = (shape: PageRowShape) =>
  shape === 'row' ? Prisma.sql`row_to_json(m)::text AS j` : shape === 'api' ? Prisma.sql`${messageApiJson} AS j` : messageReadySelect;
const joinOf = (shape: PageRowShape) =>
  shape === 'row' ? Prisma.empty : Prisma.sql`CROSS JOIN ${shape === 'api' ? messageApiLateral : messageReadyLateral}`;

/**
 * One page of messages matching `filters`, newest first (timestamp, then insertion order), one JSON
 * text per row (`j`, in `shape`). From DEFERRED_JOIN_FROM_OFFSET on, the offset is walked in the
 * index alone (ids only), then just the page's rows are read.
 */
function newestFirstSql(
  orgId: string,
  filters: Prisma.Sql[],
  page: { offset: number; limit: number },
  shape: PageRowShape = 'row',
): Prisma.Sql {
  const where = Prisma.sql`m.org_id = ${orgId}::uuid ${Prisma.join(filters, ' ')}`;
  return page.offset < DEFERRED_JOIN_FROM_OFFSET
    ? Prisma.sql`
        SELECT ${selectOf(shape)} FROM messages m ${joinOf(shape)} WHERE ${where}
        ORDER BY m."timestamp" DESC, m.id DESC OFFSET ${page.offset} LIMIT ${page.limit}`
    : Prisma.sql`
        WITH ids AS (
          SELECT m.id, m."timestamp" FROM messages m WHERE ${where}
          ORDER BY m."timestamp" DESC, m.id DESC OFFSET ${page.offset} LIMIT ${page.limit})
        SELECT ${selectOf(shape)} FROM ids JOIN messages m ON m.id = ids.id ${joinOf(shape)}
        ORDER BY ids."timestamp" DESC, ids.id DESC`;
}

/**
 * The SQL of a chat's page (null when the page reaches nothing): rows as stored (listByChat) or as
 * the spec's message objects (`api`: the bench's; `ready`: listByChatReady, GET messages). Exported for the bench's raw-driver
 * baseline (bench/messages/baseline-server.js), which runs it through `pg` directly.
 */
export function chatPageSql(orgId: string, page: ChatPage, shape: PageRowShape = 'row'): Prisma.Sql | null {
  return nothing(page) ? null : newestFirstSql(orgId, [Prisma.sql`AND m.chat_id = ${page.chatId}`, inReach(orgId, page)], page, shape);
}

/**
 * The SQL of a GET /chats/messages page (null when it reaches nothing): every chat of the
 * organization within reach, newest first, served by the (org_id, timestamp, id) INCLUDE (phone_id)
 * index; rows as stored (listAll) or written as JSON.stringify writes the messages (`ready`: listAllReady).
 */
export function allPageSql(orgId: string, page: OrgPage, shape: PageRowShape = 'row'): Prisma.Sql | null {
  if (nothing(page)) return null;
  const filters = [
    page.start ? Prisma.sql`AND m."timestamp" >= ${page.start}::timestamptz` : Prisma.empty,
    page.end ? Prisma.sql`AND m."timestamp" <= ${page.end}::timestamptz` : Prisma.empty,
    inReach(orgId, page),
  ];
  return newestFirstSql(orgId, filters, page, shape);
}

/** Message reads of the chats service. The organization is part of every signature. */
export class MessageRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Newest first (timestamp, then insertion order), served by the (org_id, chat_id, timestamp, id)
   * INCLUDE (phone_id) index, phone filters included. Deep pages use a deferred join: the offset is walked in the index alone (ids only), then
   * just the page's rows are read — the deeper the page, the more this saves over OFFSET on whole rows.
   * Run on the pg pool without Prisma's per-query work (queryRows): the rows are JSON text.
   */
  async listByChat(orgId: string, page: ChatPage): Promise<MessageRow[]> {
    return this.storedRows(chatPageSql(orgId, page));
  }

  /**
   * The same page, each message as the JSON text JSON.stringify writes for the spec's message object
   * (message-api-sql.ts's messageReadyLateral): Postgres writes it, and the few rows whose jsonb or
   * float it cannot vouch for are parsed and stringified here. Joined, they are GET messages' answer
   * as it is sent (ReadyJson), with no parse or stringify of the page (docs/decisions.md).
   */
  async listByChatReady(orgId: string, page: ChatPage): Promise<string[]> {
    return this.readyTexts(chatPageSql(orgId, page, 'ready'));
  }

  /** Runs a `row` page's SQL: the stored rows, revived from their JSON text. */
  private async storedRows(sql: Prisma.Sql | null): Promise<MessageRow[]> {
    if (!sql) return [];
    const rows = await queryRows<{ j: string }>(this.prisma, sql);
    return rows.map((r) => messageFromJson(r.j).row);
  }

  /** Runs a `ready` page's SQL: the texts Postgres vouches for as they are, the others parsed and stringified here. */
  private async readyTexts(sql: Prisma.Sql | null): Promise<string[]> {
    if (!sql) return [];
    const rows = await queryRows<{ j: string; ok: boolean }>(this.prisma, sql);
    return rows.map((r) => (r.ok ? r.j : JSON.stringify(JSON.parse(r.j))));
  }

  /**
   * Every chat of the organization, newest first (timestamp, then insertion order): GET
   * /chats/messages (allPageSql), deep pages by the same deferred join as listByChat.
   */
  async listAll(orgId: string, page: OrgPage): Promise<MessageRow[]> {
    return this.storedRows(allPageSql(orgId, page));
  }

  /** The same page, each message as the JSON text JSON.stringify writes for it (as listByChatReady). */
  async listAllReady(orgId: string, page: OrgPage): Promise<string[]> {
    return this.readyTexts(allPageSql(orgId, page, 'ready'));
  }

  /** Messages by surrogate key (a chat's latest_message_id), keyed by that id as a string; another organization's are not read. */
  async byIds(orgId: string, ids: readonly string[]): Promise<Map<string, MessageRow>> {
    if (!ids.length) return new Map();
    const rows = await this.prisma.$queryRaw<{ j: string }[]>`
      SELECT row_to_json(m)::text AS j FROM messages m WHERE m.org_id = ${orgId}::uuid AND m.id = ANY(${ids}::bigint[])`;
    return new Map(
      rows.map((r) => {
        const { id, row } = messageFromJson(r.j);
        return [id, row];
      }),
    );
  }
}
