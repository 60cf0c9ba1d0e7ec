import type { RequestContext } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { DomainEvent } from '@mapi/events';
import { randomUUID as newUuid } from 'node:crypto';
import type { MessageFact } from '../ingest/message-facts';
import { factsOf } from './message-fact';
import { applyTicketFacts, ticketFactOf, type TicketFact } from '../ingest/ticket-facts';
import type { ChatReach } from '../scope';

/**
 * What the ticket and team integration specs share: a script of ticket.* events over two chats of one
 * phone, the messages of those chats (with their senders), the team figures they give, and the ways
 * to apply them live or store them as the inbox and chats services do. Takes its Prisma client as an
 * argument (only test files may import @mapi/testing).
 */

export const T0 = Date.parse('2026-11-02T08:00:00Z');
export const MIN = 60_000;
export const PHONE = `phone-${newUuid().slice(0, 8)}`;
export const C1 = '15550001@c.us';
export const C2 = '15550002@c.us';

/** A ticket's state in the script: a TicketFact's, with its last_updated_at (epoch ms) for its version. */
type State = Omit<TicketFact, 'org_id' | 'phone_id' | 'version' | 'event_at'> & { last_updated_at: number };
export type Step = { type: 'ticket.created' | 'ticket.updated' | 'ticket.deleted'; state: State };

/**
 * T1 on C1: raised unassigned, assigned to a@ after 10 min (in progress), closed after 70 min.
 * T2 on C2: raised assigned to b@ (open). T3 on C1: raised, then deleted. T4 on C2: raised, assigned to
 * a@ after 20 min (in progress).
 */
export const script = (): Step[] => {
  const [t1, t2, t3, t4] = [newUuid(), newUuid(), newUuid(), newUuid()];
  const base = (ticket_id: string, chat_id: string, minutes: number): State => ({
    ticket_id,
    chat_id,
    status: 'open',
    assignee: null,
    is_deleted: false,
    created_at: T0 + minutes * MIN,
    first_assigned_at: null,
    closed_at: null,
    closed_by: null,
    last_updated_at: T0 + minutes * MIN,
  });
  const s1 = base(t1, C1, 0);
  const s1b = { ...s1, status: 'inprogress', assignee: 'a@x.io', first_assigned_at: T0 + 10 * MIN, last_updated_at: T0 + 10 * MIN };
  const s1c = { ...s1b, status: 'closed', closed_at: T0 + 70 * MIN, closed_by: 'a@x.io', last_updated_at: T0 + 70 * MIN };
  const s2 = { ...base(t2, C2, 5), assignee: 'b@x.io', first_assigned_at: T0 + 5 * MIN };
  const s3 = base(t3, C1, 20);
  const s3b = { ...s3, is_deleted: true, last_updated_at: T0 + 30 * MIN };
  const s4 = base(t4, C2, 30);
  const s4b = { ...s4, status: 'inprogress', assignee: 'a@x.io', first_assigned_at: T0 + 50 * MIN, last_updated_at: T0 + 50 * MIN };
  return [
    { type: 'ticket.created', state: s1 },
    { type: 'ticket.updated', state: s1b },
    { type: 'ticket.updated', state: s1c },
    { type: 'ticket.created', state: s2 },
    { type: 'ticket.created', state: s3 },
    { type: 'ticket.deleted', state: s3b },
    { type: 'ticket.created', state: s4 },
    { type: 'ticket.updated', state: s4b },
  ];
};

export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const eventOf = (org: string, s: Step): DomainEvent =>
  ({
    event_id: newUuid(),
    event_type: s.type,
    org_id: org,
    phone_id: PHONE,
    created_at: new Date(s.state.last_updated_at + 3).toISOString(),
    data: {
      ticket_id: s.state.ticket_id,
      org_id: org,
      chat_id: s.state.chat_id,
      subject: 'Help',
      status: s.state.status,
      assignee: s.state.assignee,
      is_deleted: s.state.is_deleted,
      created_at: iso(s.state.created_at),
      first_assigned_at: iso(s.state.first_assigned_at),
      closed_at: iso(s.state.closed_at),
      close_ticket_metadata: s.state.closed_at ? { closed_by: s.state.closed_by, closed_at: iso(s.state.closed_at) } : null,
      last_updated_at: iso(s.state.last_updated_at),
    },
  }) as unknown as DomainEvent;

/** The steps as the analytics intake applies them, in one transaction. */
export const apply = (prisma: PrismaClient, org: string, steps: Step[]) =>
  prisma.$transaction((tx) =>
    applyTicketFacts(
      tx,
      steps.map((s) => ticketFactOf(eventOf(org, s)) as TicketFact),
    ),
  );

export const ctxOf = (org: string, over: Partial<RequestContext> = {}): RequestContext => ({
  org_id: org,
  token_id: newUuid(),
  phone_scope: null,
  phone: null,
  ...over,
});

/** A member of the organization (the reach decides which chats they see). */
export const memberCtx = (org: string) =>
  ctxOf(org, { member: { member_id: newUuid(), session_id: newUuid(), email: 'm@example.com', role: 'member' } });

export const everyone: ChatReach = async (_ctx, copies) => copies;
export const onlyC1: ChatReach = async (_ctx, copies) => copies.filter((c) => c.chat_id === C1);

/** The tickets as the inbox service stores them: each one's last state. */
export const storeTickets = async (prisma: PrismaClient, org: string, steps: Step[]) => {
  const last = new Map(steps.map((s) => [s.state.ticket_id, s.state]));
  await prisma.inboxTicket.createMany({
    data: [...last.values()].map((s) => ({
      ticket_id: s.ticket_id,
      org_id: org,
      phone_id: PHONE,
      chat_id: s.chat_id,
      subject: 'Help',
      status: s.status,
      assignee: s.assignee,
      first_assigned_at: s.first_assigned_at === null ? null : new Date(s.first_assigned_at),
      closed_at: s.closed_at === null ? null : new Date(s.closed_at),
      closed_by: s.closed_by,
      is_deleted: s.is_deleted,
      created_at: new Date(s.created_at),
      last_updated_at: new Date(s.last_updated_at),
    })),
  });
};

/**
 * C1: incoming at 0, answered by a@ at 4 min, b@ writes at 6. C2: incoming at 10, answered by b@ at 12,
 * then an unknown sender at 20; incoming at 30 answered at 40 by an unknown sender.
 */
export const messages = (org: string): MessageFact[] => {
  const m = factsOf(org, PHONE, T0);
  return [
    m(C1, 'M1', 0, false),
    m(C1, 'M2', 4, true, 'a@x.io'),
    m(C1, 'M3', 6, true, 'b@x.io'),
    m(C2, 'M4', 10, false),
    m(C2, 'M5', 12, true, 'b@x.io'),
    m(C2, 'M6', 20, true),
    m(C2, 'M7', 30, false),
    m(C2, 'M8', 40, true),
  ];
};

/** One member's row of the team figures. */
const row = (member: string, active_chats: number, messages_sent: number, first: number | null, closed: number, unresolved: number) => ({
  member,
  name: null,
  active_chats,
  messages_sent,
  first_response_ms: { median: first, count: first === null ? 0 : 1 },
  next_response_ms: { median: null, count: 0 },
  tickets_closed: closed,
  tickets_unresolved: unresolved,
});

/** The team figures of the script and the messages, for everyone. */
export const TEAM = [row('b@x.io', 2, 2, 2 * MIN, 0, 1), row('a@x.io', 1, 1, 4 * MIN, 1, 1)];

/** The team figures of a member who reaches C1 only. */
export const TEAM_C1 = [row('a@x.io', 1, 1, 4 * MIN, 1, 0), row('b@x.io', 1, 1, null, 0, 0)];
