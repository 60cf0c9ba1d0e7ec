import type { Label } from '../../api/types';

/** A custom property definition as GET /v1/custom-properties lists it. */
export interface CustomPropertyDef {
  property_id: string;
  property_name: string;
  property_value_type: string;
  /** A dropdown's options, comma-separated. */
  property_value: string | null;
  is_required: boolean;
  /** chat | ticket */
  type: string;
}

/** Label names (lower case, sorted) from a chat's or ticket's `label_ids` ({label_id: true}) and the label catalogue. */
export function chatLabelNames(
  labelIds: Record<string, boolean> | null | undefined | unknown,
  catalogue: ReadonlyMap<string, Label>,
): string[] {
  const ids = labelIds && typeof labelIds === 'object' ? (labelIds as Record<string, unknown>) : {};
  return Object.entries(ids)
    .filter(([, on]) => on === true)
    .map(([id]) => catalogue.get(id)?.name.toLowerCase())
    .filter((n): n is string => !!n)
    .sort();
}

/** The label names after adding (or removing) one, as `labels` of PATCH /v1/chats/labels (comma-separated). */
export function labelsWith(current: readonly string[], name: string, on: boolean): string {
  const n = name.trim().toLowerCase();
  const set = new Set(current.map((c) => c.toLowerCase()));
  if (on && n) set.add(n);
  else set.delete(n);
  return [...set].sort().join(',');
}

/**
 * A ticket's labels as text (comma-separated, sorted) from its `label_ids`: tickets key them by name
 * (labels have no ids of their own there); an id the catalogue knows is named from it.
 */
export function ticketLabelText(labelIds: unknown, catalogue: ReadonlyMap<string, Label>): string {
  const ids = labelIds && typeof labelIds === 'object' ? (labelIds as Record<string, unknown>) : {};
  const names = Object.entries(ids)
    .filter(([, on]) => on === true)
    .map(([k]) => (catalogue.get(k)?.name ?? k).toLowerCase());
  return [...new Set(names)].sort().join(',');
}

/** A dropdown's options: trimmed, without empties or repeats. */
export function optionsOf(def: Pick<CustomPropertyDef, 'property_value'>): string[] {
  const seen = new Set<string>();
  return (def.property_value ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o && !seen.has(o.toLowerCase()) && seen.add(o.toLowerCase()));
}

/**
 * The custom properties of one kind (chat, or ticket), each with its value from a chat's or ticket's
 * `custom_properties` ({property_id: value}; a value keyed by the property's name is read too).
 */
export function chatProperties(
  defs: readonly CustomPropertyDef[],
  values: unknown,
  type: 'chat' | 'ticket' = 'chat',
): { def: CustomPropertyDef; value: string }[] {
  const held = values && typeof values === 'object' ? (values as Record<string, unknown>) : {};
  return defs
    .filter((d) => d.type === type)
    .map((def) => {
      const v = held[def.property_id] ?? held[def.property_name];
      return { def, value: v === null || v === undefined ? '' : String(v) };
    });
}

/** `custom_properties` for PATCH /v1/chats/{chat_id}: only the values changed, by id; an emptied one null. */
export function propertyChanges(
  before: readonly { def: CustomPropertyDef; value: string }[],
  after: Record<string, string>,
): Record<string, string | null> | null {
  const out: Record<string, string | null> = {};
  for (const { def, value } of before) {
    const next = (after[def.property_id] ?? value).trim();
    if (next !== value) out[def.property_id] = next || null;
  }
  return Object.keys(out).length ? out : null;
}

/** An ISO due date as a date input's value (yyyy-mm-dd, UTC); '' when none. */
export const dueDateInput = (iso: string | null | undefined): string => (iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : '');

/** Comma-separated ticket labels as a list (trimmed, lower case, no repeats). */
export const labelList = (text: string | null | undefined): string[] => [
  ...new Set(
    (text ?? '')
      .split(',')
      .map((l) => l.trim().toLowerCase())
      .filter(Boolean),
  ),
];

export interface PanelTicket {
  status: string | null;
  priority: number | null;
  assignee: string | null;
  due_date?: string | null;
  ticket_labels?: string | null;
}

/**
 * The changed fields of a ticket's form, as PATCH /v1/tickets/{ticket_id} takes them: status,
 * priority (a number), assignee and due date (emptied: null, clears), labels (comma-separated,
 * compared as sets). null when nothing changed.
 */
export function ticketPatch(
  before: PanelTicket,
  after: { status: string; priority: string; assignee: string; due_date: string; labels: string },
): Record<string, string | number | null> | null {
  const body: Record<string, string | number | null> = {};
  if (after.status && after.status !== before.status) body.status = after.status;
  if (after.priority && Number(after.priority) !== before.priority) body.priority = Number(after.priority);
  const assignee = after.assignee.trim().toLowerCase();
  if (assignee !== (before.assignee ?? '').toLowerCase()) body.assignee = assignee || null;
  if (after.due_date !== dueDateInput(before.due_date)) body.due_date = after.due_date ? `${after.due_date}T00:00:00Z` : null;
  const labels = labelList(after.labels);
  const had = labelList(before.ticket_labels);
  if (labels.length !== had.length || labels.some((l) => !had.includes(l))) body.labels = labels.join(',');
  return Object.keys(body).length ? body : null;
}

/** A new ticket's subject from the message it is opened from: its first line, at most 80 characters. */
export function subjectFrom(body: string | null | undefined): string {
  const line = (body ?? '').split('\n')[0].trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** The contact id of a one-to-one chat (`<digits>@c.us`); null for groups and others. */
export const contactIdOf = (chatId: string): string | null => (/^\d+@c\.us$/.test(chatId) ? chatId : null);

/** Active members' emails, sorted, for an assignee picker; the current value kept even when not a member. */
export function assigneeChoices(members: readonly { email: string; is_active: boolean }[], current: string | null): string[] {
  const emails = new Set(members.filter((m) => m.is_active).map((m) => m.email.toLowerCase()));
  if (current) emails.add(current.toLowerCase());
  return [...emails].sort();
}

/** Tickets open or in progress first (newest first within each), then the others. */
export function orderTickets<T extends { status: string | null; created_at: string }>(tickets: readonly T[]): T[] {
  const live = (t: T) => (t.status === 'open' || t.status === 'inprogress' ? 0 : 1);
  return [...tickets].sort((a, b) => live(a) - live(b) || b.created_at.localeCompare(a.created_at));
}

/** Longest contact label the API takes (PATCH /v1/contacts/{contact_id}, `labels`). */
export const MAX_CONTACT_LABEL = 100;

/**
 * The body of PATCH /v1/contacts/{contact_id} from the contact form: the name (trimmed) and the
 * labels (comma-separated, compared as sets, lower case) that changed; null when nothing did. An
 * `error` for a form the API would refuse: a name once given cannot be emptied (the API keeps
 * contact_name non-empty), and a label is at most MAX_CONTACT_LABEL characters.
 */
export function contactPatch(
  before: { contact_name: string | null; labels: readonly string[] },
  after: { name: string; labels: string },
): { body: { contact_name?: string; labels?: string } } | { error: string } | null {
  const body: { contact_name?: string; labels?: string } = {};
  const name = after.name.trim();
  if (!name && before.contact_name) return { error: 'A contact’s name cannot be emptied: write the name to keep.' };
  if (name && name !== before.contact_name) body.contact_name = name;
  const labels = labelList(after.labels);
  const long = labels.find((l) => l.length > MAX_CONTACT_LABEL);
  if (long) return { error: `A label is at most ${MAX_CONTACT_LABEL} characters: shorten “${long.slice(0, 20)}…”.` };
  const had = labelList(before.labels.join(','));
  if (labels.length !== had.length || labels.some((l) => !had.includes(l))) body.labels = labels.join(',');
  return Object.keys(body).length ? { body } : null;
}
