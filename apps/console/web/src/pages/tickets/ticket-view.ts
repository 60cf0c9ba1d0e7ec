/** Ticket priorities as the API numbers them. */
export const PRIORITIES: readonly [number, string][] = [
  [1, 'low'],
  [2, 'medium'],
  [3, 'high'],
  [4, 'urgent'],
];

export const priorityText = (p: number | null): string => PRIORITIES.find(([n]) => n === p)?.[1] ?? 'none';

export const STATUS_TEXT: Record<string, string> = { open: 'open', inprogress: 'in progress', closed: 'closed', archived: 'archived' };

/** `/tickets?…` with the filters given (blank ones left out; the assignee trimmed, compared lower case by the API). */
export function ticketsPath(filters: { status?: string; assignee?: string }, limit = 200): string {
  const q = new URLSearchParams({ limit: String(limit) });
  if (filters.status) q.set('status', filters.status);
  const assignee = filters.assignee?.trim();
  if (assignee) q.set('assignee', assignee);
  return `/tickets?${q.toString()}`;
}

/** The changed fields of the ticket form, as PATCH /v1/tickets/{id} takes them; an emptied assignee clears it (null). */
export function ticketChanges(
  before: { status: string | null; priority: number | null; assignee: string | null },
  after: { status: string; priority: string; assignee: string },
): Record<string, string | number | null> | null {
  const body: Record<string, string | number | null> = {};
  if (after.status && after.status !== before.status) body.status = after.status;
  if (after.priority && Number(after.priority) !== before.priority) body.priority = Number(after.priority);
  const assignee = after.assignee.trim().toLowerCase();
  if (assignee !== (before.assignee ?? '')) body.assignee = assignee || null;
  return Object.keys(body).length ? body : null;
}
