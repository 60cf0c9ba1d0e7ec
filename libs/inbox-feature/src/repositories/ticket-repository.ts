import { Prisma, queryRows, type PrismaClient } from '@mapi/db';

/** A stored ticket, as `inbox_tickets` holds it. */
export interface TicketRow {
  ticket_id: string;
  org_id: string;
  phone_id: string;
  chat_id: string;
  subject: string;
  status: string;
  priority: number;
  assignee: string | null;
  assigned_by: string | null;
  first_assigned_at: Date | null;
  raised_by: string | null;
  quoted_message_id: string | null;
  attached_message_ids: string[];
  due_date: Date | null;
  labels: string[];
  /** property_id → value (Json as Prisma gives it; read with ticketValues). */
  custom_properties: Prisma.JsonValue;
  closed_at: Date | null;
  closed_by: string | null;
  is_deleted: boolean;
  created_at: Date;
  last_updated_at: Date;
  last_updated_by: string | null;
  request_hash: string | null;
}

export type NewTicket = Omit<
  TicketRow,
  'org_id' | 'created_at' | 'last_updated_at' | 'is_deleted' | 'closed_at' | 'closed_by' | 'request_hash' | 'custom_properties'
> &
  Partial<Pick<TicketRow, 'closed_at' | 'closed_by' | 'request_hash'>> & { custom_properties?: Record<string, string> };

/** What an update may set (undefined: left as it is). */
export type TicketChanges = Partial<
  Pick<
    TicketRow,
    | 'subject'
    | 'status'
    | 'priority'
    | 'assignee'
    | 'assigned_by'
    | 'first_assigned_at'
    | 'due_date'
    | 'labels'
    | 'closed_at'
    | 'closed_by'
    | 'last_updated_by'
  >
> & {
  /** The ticket's values after the change, keys sorted. */
  custom_properties?: Record<string, string>;
};

/** A ticket's custom property values (property_id → value), keys sorted; {} when none. */
export function ticketValues(row: Pick<TicketRow, 'custom_properties'>): Record<string, string> {
  const v = row.custom_properties;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.keys(v).length ? sortedValues(v as Record<string, unknown>) : {};
}

function sortedValues(v: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => typeof x === 'string')
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  ) as Record<string, string>;
}

export interface TicketFilter {
  status?: string;
  assignee?: string;
  chat_id?: string;
  label?: string;
  /** A ticket custom property's value, as stored (already read for the property's type): an exact match. */
  custom_property?: { property_id: string; value: string };
}

type Db = PrismaClient | Prisma.TransactionClient;

/** An inbox_tickets row as `row_to_json(t)` gives it: the same columns, timestamps as ISO text. */
export type TicketJson = Omit<TicketRow, 'first_assigned_at' | 'due_date' | 'closed_at' | 'created_at' | 'last_updated_at'> &
  Record<'first_assigned_at' | 'due_date' | 'closed_at', string | null> &
  Record<'created_at' | 'last_updated_at', string>;

const dateOrNull = (text: string | null): Date | null => (text === null ? null : new Date(text));

/** A row as `row_to_json(t)` gives it (parsed) back to the row Prisma would give (its five timestamps revived). */
export function reviveTicket(j: TicketJson): TicketRow {
  return {
    ticket_id: j.ticket_id,
    org_id: j.org_id,
    phone_id: j.phone_id,
    chat_id: j.chat_id,
    subject: j.subject,
    status: j.status,
    priority: j.priority,
    assignee: j.assignee,
    assigned_by: j.assigned_by,
    first_assigned_at: dateOrNull(j.first_assigned_at),
    raised_by: j.raised_by,
    quoted_message_id: j.quoted_message_id,
    attached_message_ids: j.attached_message_ids,
    due_date: dateOrNull(j.due_date),
    labels: j.labels,
    custom_properties: j.custom_properties ?? {},
    closed_at: dateOrNull(j.closed_at),
    closed_by: j.closed_by,
    is_deleted: j.is_deleted,
    created_at: new Date(j.created_at),
    last_updated_at: new Date(j.last_updated_at),
    last_updated_by: j.last_updated_by,
    request_hash: j.request_hash,
  };
}

/** phone_id among the phones in reach; null reach: every phone of the organization (no filter). */
const inReach = (phoneIds: string[] | null) => (phoneIds ? { phone_id: { in: phoneIds } } : {});

/**
 * Tickets of the inbox service. The organization is part of every signature and every query;
 * `phoneIds` (the phones in reach, null for all) narrows to the tickets of those phones.
 */
export class TicketRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * A page of the tickets not deleted, newest first (created_at, then ticket_id), filtered as asked:
   * served by (org_id, created_at, ticket_id) or, filtered by status and assignee, by (org_id,
   * status, assignee, created_at, ticket_id). Rows come back as one JSON text each, parsed and not
   * revived (mapTicketJson maps them without Date objects): the hot read skips Prisma's per-column
   * row decoding (docs/benchmarks.md, "GET /tickets"), and runs on the pg pool without Prisma's
   * per-query work (queryRows). A custom property value is matched in `custom_properties` (no index:
   * the organization's rows are read newest first until the page is full).
   */
  async listJson(orgId: string, phoneIds: string[] | null, filter: TicketFilter, offset: number, limit: number): Promise<TicketJson[]> {
    if (phoneIds && !phoneIds.length) return [];
    const property = filter.custom_property;
    // The page's rows are picked in a subquery and only they are turned into JSON: with the JSON in the
    // same SELECT, Postgres would write it for every row OFFSET skips too, its CPU growing with the offset.
    const rows = await queryRows<{ j: string }>(
      this.prisma,
      Prisma.sql`
      SELECT row_to_json(t)::text AS j FROM (SELECT * FROM inbox_tickets t
      WHERE t.org_id = ${orgId}::uuid AND t.is_deleted = false
        ${phoneIds ? Prisma.sql`AND t.phone_id = ANY(${phoneIds}::text[])` : Prisma.empty}
        ${filter.status ? Prisma.sql`AND t.status = ${filter.status}` : Prisma.empty}
        ${filter.assignee ? Prisma.sql`AND t.assignee = ${filter.assignee}` : Prisma.empty}
        ${filter.chat_id ? Prisma.sql`AND t.chat_id = ${filter.chat_id}` : Prisma.empty}
        ${filter.label ? Prisma.sql`AND t.labels @> ARRAY[${filter.label}]::text[]` : Prisma.empty}
        ${property ? Prisma.sql`AND t.custom_properties ->> ${property.property_id}::text = ${property.value}` : Prisma.empty}
      ORDER BY t.created_at DESC, t.ticket_id DESC OFFSET ${offset} LIMIT ${limit}) t
      ORDER BY t.created_at DESC, t.ticket_id DESC`,
    );
    return rows.map((r) => JSON.parse(r.j) as TicketJson);
  }

  find(orgId: string, ticketId: string, phoneIds: string[] | null, db: Db = this.prisma): Promise<TicketRow | null> {
    if (phoneIds && !phoneIds.length) return Promise.resolve(null);
    return db.inboxTicket.findFirst({ where: { org_id: orgId, ticket_id: ticketId, is_deleted: false, ...inReach(phoneIds) } });
  }

  /** The organization's ticket with this id whatever its phone and state (an Idempotency-Key's earlier create). */
  findMade(orgId: string, ticketId: string): Promise<TicketRow | null> {
    return this.prisma.inboxTicket.findFirst({ where: { org_id: orgId, ticket_id: ticketId } });
  }

  /** The ticket in reach, its row locked until the transaction ends; null when there is none. */
  async findForUpdate(tx: Prisma.TransactionClient, orgId: string, ticketId: string, phoneIds: string[] | null): Promise<TicketRow | null> {
    if (phoneIds && !phoneIds.length) return null;
    const locked = await tx.$queryRaw<{ ticket_id: string }[]>`
      SELECT ticket_id FROM inbox_tickets
      WHERE org_id = ${orgId}::uuid AND ticket_id = ${ticketId}::uuid AND (${phoneIds === null} OR phone_id = ANY(${phoneIds ?? []}::text[]))
      FOR UPDATE`;
    return locked.length ? this.find(orgId, ticketId, phoneIds, tx) : null;
  }

  insert(tx: Db, orgId: string, ticket: NewTicket): Promise<TicketRow> {
    return tx.inboxTicket.create({ data: { ...ticket, org_id: orgId } });
  }

  update(tx: Db, orgId: string, ticketId: string, changes: TicketChanges, at: Date): Promise<TicketRow> {
    // the caller holds the row (findForUpdate) of this organization
    return tx.inboxTicket.update({ where: { ticket_id: ticketId, org_id: orgId }, data: { ...changes, last_updated_at: at } });
  }

  /** Marks the ticket deleted; the caller holds its row (findForUpdate) of this organization. */
  markDeleted(tx: Db, orgId: string, ticketId: string, by: string | null, at: Date): Promise<TicketRow> {
    return tx.inboxTicket.update({
      where: { ticket_id: ticketId, org_id: orgId },
      data: { is_deleted: true, last_updated_by: by, last_updated_at: at },
    });
  }

  transaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }
}
