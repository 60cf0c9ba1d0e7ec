import type { Prisma } from '@mapi/db';
import { orgLockSql } from './apply-facts';

type Tx = Prisma.TransactionClient;

/**
 * What the analytics service keeps of one ticket: its state as the newest ticket.* event (or the
 * rebuild, from the stored tickets) said. Every ticket event carries the whole ticket.
 */
export interface TicketFact {
  org_id: string;
  ticket_id: string;
  phone_id: string;
  chat_id: string;
  status: string;
  assignee: string | null;
  is_deleted: boolean;
  /** Epoch ms. */
  created_at: number;
  first_assigned_at: number | null;
  closed_at: number | null;
  closed_by: string | null;
  /** The ticket's last_updated_at (epoch ms): the version of this state. */
  version: number;
  /** The event's created_at (epoch ms): breaks ties between equal versions. */
  event_at: number;
}

/** The events that carry a ticket (the inbox service's, libs/inbox-feature). */
export const TICKET_EVENTS = ['ticket.created', 'ticket.updated', 'ticket.deleted'] as const;

interface EventLike {
  event_type: string;
  org_id: string;
  phone_id: string | null;
  created_at: string;
  data: unknown;
}

const stamp = (v: unknown): number | null => {
  if (typeof v !== 'string') return null;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : null;
};

/** The ticket state an event carries, or null for another event or a malformed ticket. */
export function ticketFactOf(e: EventLike): TicketFact | null {
  if (!(TICKET_EVENTS as readonly string[]).includes(e.event_type) || !e.org_id || !e.phone_id) return null;
  const t = e.data as {
    ticket_id?: unknown;
    chat_id?: unknown;
    status?: unknown;
    assignee?: unknown;
    is_deleted?: unknown;
    created_at?: unknown;
    first_assigned_at?: unknown;
    closed_at?: unknown;
    close_ticket_metadata?: { closed_by?: unknown } | null;
    last_updated_at?: unknown;
  } | null;
  if (!t || typeof t.ticket_id !== 'string' || typeof t.chat_id !== 'string' || typeof t.status !== 'string') return null;
  const created = stamp(t.created_at);
  const eventAt = stamp(e.created_at);
  if (created === null || eventAt === null) return null;
  const closedBy = t.close_ticket_metadata?.closed_by;
  return {
    org_id: e.org_id,
    ticket_id: t.ticket_id,
    phone_id: e.phone_id,
    chat_id: t.chat_id,
    status: t.status,
    assignee: typeof t.assignee === 'string' && t.assignee !== '' ? t.assignee : null,
    is_deleted: e.event_type === 'ticket.deleted' || t.is_deleted === true,
    created_at: created,
    first_assigned_at: stamp(t.first_assigned_at),
    closed_at: stamp(t.closed_at),
    closed_by: typeof closedBy === 'string' ? closedBy : null,
    version: stamp(t.last_updated_at) ?? created,
    event_at: eventAt,
  };
}

/** Whether state a is newer than b: by version, then by event time. */
export const isNewer = (a: Pick<TicketFact, 'version' | 'event_at'>, b: Pick<TicketFact, 'version' | 'event_at'>) =>
  a.version > b.version || (a.version === b.version && a.event_at > b.event_at);

const ticketKey = (f: TicketFact) => `${f.org_id}\u0000${f.ticket_id}`;

/** One state per ticket, the newest of a batch's, in key order (rows are locked in that order). */
export function dedupeTicketFacts(facts: readonly TicketFact[]): TicketFact[] {
  const byKey = new Map<string, TicketFact>();
  for (const f of facts) {
    const seen = byKey.get(ticketKey(f));
    if (!seen || isNewer(f, seen)) byKey.set(ticketKey(f), f);
  }
  return [...byKey.values()].sort((a, b) => (ticketKey(a) < ticketKey(b) ? -1 : ticketKey(a) > ticketKey(b) ? 1 : 0));
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Keeps each ticket's newest state, in the caller's transaction: a row is written when the ticket is
 * new or the state is newer than the stored one (version, then event time), so a redelivered, replayed
 * or late event changes nothing (the organization is locked shared first, as message batches do). The figures are read from these rows: nothing is counted twice.
 */
export async function applyTicketFacts(
  tx: Tx,
  input: readonly TicketFact[],
  options: { rebuild?: boolean } = {},
): Promise<{ written: number }> {
  const facts = dedupeTicketFacts(input);
  if (!facts.length) return { written: 0 };
  // Shared, as the message batches take it: a rebuild (holding it exclusively) does not interleave.
  if (!options.rebuild) await tx.$queryRawUnsafe(orgLockSql(true), [...new Set(facts.map((f) => f.org_id))]);
  const written = await tx.$executeRawUnsafe(
    `INSERT INTO analytics_tickets AS t (org_id, ticket_id, phone_id, chat_id, status, assignee, is_deleted, created_at,
       first_assigned_at, closed_at, closed_by, version, event_at)
     SELECT x.org_id, x.ticket_id, x.phone_id, x.chat_id, x.status, x.assignee, x.is_deleted, x.created_at,
       x.first_assigned_at, x.closed_at, x.closed_by, x.version, x.event_at
     FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, ticket_id text, phone_id text, chat_id text, status text, assignee text,
       is_deleted boolean, created_at timestamptz, first_assigned_at timestamptz, closed_at timestamptz, closed_by text,
       version timestamptz, event_at timestamptz)
     ORDER BY x.org_id, x.ticket_id
     ON CONFLICT (org_id, ticket_id) DO UPDATE SET phone_id = EXCLUDED.phone_id, chat_id = EXCLUDED.chat_id,
       status = EXCLUDED.status, assignee = EXCLUDED.assignee, is_deleted = EXCLUDED.is_deleted, created_at = EXCLUDED.created_at,
       first_assigned_at = EXCLUDED.first_assigned_at, closed_at = EXCLUDED.closed_at, closed_by = EXCLUDED.closed_by,
       version = EXCLUDED.version, event_at = EXCLUDED.event_at
     WHERE (EXCLUDED.version, EXCLUDED.event_at) > (t.version, t.event_at)`,
    JSON.stringify(
      facts.map((f) => ({
        ...f,
        created_at: iso(f.created_at),
        first_assigned_at: iso(f.first_assigned_at),
        closed_at: iso(f.closed_at),
        version: iso(f.version),
        event_at: iso(f.event_at),
      })),
    ),
  );
  return { written };
}
