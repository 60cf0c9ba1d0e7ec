import { digits, type Chat, type ChatDetail, type Label, type Message, type Ticket } from '../../api/types';

/**
 * The chat list's filters, as the address keeps them (`/chats?assigned=mine&unread=1&q=refund`), so
 * a link or a reload shows the same list. `phone` is named `on_phone` in the address: `phone` is the
 * open chat's phone there.
 */
export interface ChatFilters {
  /** mine: assigned to the signed-in member; none: assigned to no one. */
  assigned: '' | 'mine' | 'none';
  /** A label's id. */
  label: string;
  /** A phone's digits (x-phone of the list's call). */
  phone: string;
  unread: boolean;
  flagged: boolean;
  /** Only chats with a ticket open or in progress. */
  ticket: boolean;
  /** Name, number or message text. */
  q: string;
}

export const NO_FILTERS: ChatFilters = { assigned: '', label: '', phone: '', unread: false, flagged: false, ticket: false, q: '' };

/** The filters of an address's query (anything unknown or malformed is no filter). */
export function filtersFromQuery(query: URLSearchParams): ChatFilters {
  const assigned = query.get('assigned');
  return {
    assigned: assigned === 'mine' || assigned === 'none' ? assigned : '',
    label: query.get('label')?.trim() ?? '',
    phone: (query.get('on_phone') ?? '').replace(/\D/g, ''),
    unread: query.get('unread') === '1',
    flagged: query.get('flagged') === '1',
    ticket: query.get('ticket') === 'open',
    q: (query.get('q') ?? '').trim().slice(0, 100),
  };
}

/** The filters as query pairs (those set only, in a fixed order). */
export function filtersToQuery(f: ChatFilters): [string, string][] {
  const out: [string, string][] = [];
  if (f.assigned) out.push(['assigned', f.assigned]);
  if (f.label) out.push(['label', f.label]);
  if (f.phone) out.push(['on_phone', f.phone]);
  if (f.unread) out.push(['unread', '1']);
  if (f.flagged) out.push(['flagged', '1']);
  if (f.ticket) out.push(['ticket', 'open']);
  if (f.q) out.push(['q', f.q]);
  return out;
}

/** Whether any filter is set. */
export const filtering = (f: ChatFilters): boolean => filtersToQuery(f).length > 0;

/**
 * A page address keeping the list's filters: the list (`/chats?…`) or one chat
 * (`/chats/<id>?phone=<digits>&…`).
 */
export function chatsPagePath(f: ChatFilters, chat?: Pick<Chat, 'chat_id' | 'org_phone'>): string {
  const q = new URLSearchParams();
  if (chat) q.set('phone', digits(chat.org_phone));
  for (const [k, v] of filtersToQuery(f)) q.set(k, v);
  const query = q.toString();
  return `${chat ? `/chats/${encodeURIComponent(chat.chat_id)}` : '/chats'}${query ? `?${query}` : ''}`;
}

/**
 * The GET /v1/chats call for the filters: its path and x-phone (the phone filter). `mine` needs the
 * member's email. `cursor`: the page after the one that answered it (keyset paging).
 */
export function chatsRequest(
  f: ChatFilters,
  email: string | null,
  limit: number,
  cursor?: string | null,
): { path: string; phone: string | null } {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor) q.set('cursor', cursor);
  if (f.assigned === 'mine' && email) q.set('assigned_to', email);
  if (f.assigned === 'none') q.set('assigned_to', 'none');
  if (f.label) q.set('label', f.label);
  if (f.unread) q.set('unread', 'true');
  if (f.flagged) q.set('flagged', 'true');
  if (f.ticket) q.set('open_ticket', 'true');
  if (f.q) q.set('search', f.q);
  return { path: `/chats?${q.toString()}`, phone: f.phone || null };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const pad = (n: number) => String(n).padStart(2, '0');
const dayStart = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/**
 * When the last message came, short, in the browser's time zone: `14:02` today, `Yesterday`, the
 * weekday within the last week (`Mon`), `12 Nov` this year, `12 Nov 2024` before; '' for none.
 */
export function shortTime(at: number | string | null | undefined, now: Date = new Date()): string {
  if (at === null || at === undefined || at === '') return '';
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return '';
  const days = Math.round((dayStart(now) - dayStart(d)) / 86_400_000);
  if (days <= 0) return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (days === 1) return 'Yesterday';
  if (days < 7) return DAYS[d.getDay()];
  const dayMonth = `${d.getDate()} ${MONTHS[d.getMonth()]}`;
  return d.getFullYear() === now.getFullYear() ? dayMonth : `${dayMonth} ${d.getFullYear()}`;
}

/** The chat's newest message time (epoch ms), from the view's field or its latest message. */
export function lastActivity(chat: Chat): number | null {
  if (chat.latest_message_timestamp) return chat.latest_message_timestamp;
  const t = chat.latest_message?.timestamp ? Date.parse(chat.latest_message.timestamp) : Number.NaN;
  return Number.isNaN(t) ? null : t;
}

/**
 * Unread inbound messages: the signed-in member's own (member_unread_count, their read marks), else
 * the largest count among the phones in reach (they see the same chat).
 */
export function unreadOf(chat: Chat): number {
  const own = Object.values(chat.member_unread_count ?? {});
  if (own.length) return own[0];
  const counts = Object.values(chat.unread_count ?? {});
  return counts.length ? Math.max(0, ...counts) : (chat.message_unread_count ?? 0);
}

/**
 * How a row names a chat: `title` is its name (the API's chat_name, which the chats service fills for
 * a one-to-one chat from the contact: the name given through the API, the phone's, else the customer's
 * push name), `number` the customer's number (`+…`) beside it, secondary. A chat with no name is shown by
 * its number (then `number` is null: not twice); a group by its subject, never a number.
 */
export function chatHeading(chat: Pick<ChatDetail, 'chat_id' | 'chat_name' | 'name' | 'contact_name' | 'chat_type'>): {
  title: string;
  number: string | null;
} {
  const name = (chat.chat_name || chat.name || chat.contact_name || '').trim();
  const group = chat.chat_type === 'group' || chat.chat_id.endsWith('@g.us');
  if (group) return { title: name || digits(chat.chat_id), number: null };
  const number = `+${digits(chat.chat_id)}`;
  return name && name.replace(/\D/g, '') !== digits(chat.chat_id) ? { title: name, number } : { title: number, number: null };
}

/** `ana@example.com` → `ana`: the assignee as a row shows it (the whole email in its title). */
export const assigneeShort = (email: string | null | undefined): string => (email ? email.replace(/@.*$/, '') : '');

/** The chat's labels, by the organization's labels (an id no longer known is left out), by name. */
export function chatLabels(chat: Chat, labels: ReadonlyMap<string, Label>): Label[] {
  return Object.entries(chat.label_ids ?? {})
    .filter(([, on]) => on)
    .flatMap(([id]) => (labels.get(id) ? [labels.get(id) as Label] : []))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The chats with a ticket open or in progress. */
export function openTicketChats(tickets: readonly Pick<Ticket, 'chat_id' | 'status'>[]): Set<string> {
  return new Set(tickets.filter((t) => t.status === 'open' || t.status === 'inprogress').map((t) => t.chat_id));
}

/** GET /v1/analytics/now?lists=breaching: the chats breaching an SLA (the part the chat list reads). */
export interface BreachingAnswer {
  breaching?: { chats: { phone_id: string; chat_id: string; waiting_since: string; due_at: string; policies: { name: string }[] }[] };
}

/** A chat marked "SLA breached" in the list: the policies it breaches (on any phone) and its earliest passed deadline. */
export interface BreachMark {
  policies: string[];
  /** Epoch ms. */
  dueAt: number;
}

/**
 * The breaching chats by chat id (the list has one row per chat id; a chat breaching on two phones is one mark).
 * `replies`: chat id → the timestamp (epoch ms) of a reply seen lately on the socket; a breach whose wait
 * started at or before it is answered, even if the answer was read before the analytics service took the reply in.
 */
export function breachMarks(answer: BreachingAnswer, replies: ReadonlyMap<string, number> = new Map()): Map<string, BreachMark> {
  const marks = new Map<string, BreachMark>();
  for (const c of answer.breaching?.chats ?? []) {
    const replied = replies.get(c.chat_id);
    if (replied !== undefined && Date.parse(c.waiting_since) <= replied) continue;
    const had = marks.get(c.chat_id);
    const dueAt = Date.parse(c.due_at);
    const policies = [...new Set([...(had?.policies ?? []), ...c.policies.map((p) => p.name)])].sort((a, b) => a.localeCompare(b));
    marks.set(c.chat_id, { policies, dueAt: had ? Math.min(had.dueAt, dueAt) : dueAt });
  }
  return marks;
}

/**
 * A message applied to the marks: a reply (sent from a phone) answers its chat's breach, so the chat loses
 * its mark at once (the caller reads the marks again later: a copy on another phone may still breach).
 * `null`: nothing changes (not a reply, or the chat was not marked).
 */
export function withoutBreach(
  marks: ReadonlyMap<string, BreachMark>,
  message: Pick<Message, 'chat_id' | 'from_me'>,
): Map<string, BreachMark> | null {
  if (!message.from_me || !marks.has(message.chat_id)) return null;
  const next = new Map(marks);
  next.delete(message.chat_id);
  return next;
}

/** The mark's tooltip: `SLA breached: First reply, VIP (deadline 14:02)`. */
export function breachTitle(mark: BreachMark, now: Date = new Date()): string {
  const what = mark.policies.length ? `: ${mark.policies.join(', ')}` : '';
  return `SLA breached${what} (deadline ${shortTime(mark.dueAt, now)})`;
}

/** The key of a chat in the list (its id: GET /chats has one entry per chat id). */
export const chatKey = (chat: Pick<Chat, 'chat_id'>): string => chat.chat_id;

/**
 * A new message applied to the list without reading it again: its chat moves to the top with the
 * message as its latest, an inbound message counts as unread on its phone (unless the chat is open:
 * it is being read), one sent from the phone reads the chat there. `null`: the chat is not in the
 * list (the caller reads the list again).
 */
export function withNewMessage(chats: readonly Chat[], message: Message, openChatId: string | null): Chat[] | null {
  const i = chats.findIndex((c) => c.chat_id === message.chat_id);
  if (i < 0) return null;
  const chat = chats[i];
  const at = message.timestamp ? Date.parse(message.timestamp) : Date.now();
  if (chat.latest_message_timestamp && at < chat.latest_message_timestamp) return [...chats]; // an older message (a sync): order unchanged
  const unread = { ...(chat.unread_count ?? {}) };
  const key = message.org_phone; // the unread map's key: the phone's contact id, as the API writes it
  if (message.from_me || openChatId === chat.chat_id) unread[key] = 0;
  else unread[key] = (unread[key] ?? 0) + 1;
  // The member's own count: one more for a customer's message unless the chat is open (being read); a
  // message sent from the phone (maybe by a colleague) does not read it for them.
  const own = chat.member_unread_count
    ? Object.fromEntries(
        Object.entries(chat.member_unread_count).map(([email, n]) => [
          email,
          openChatId === chat.chat_id ? 0 : message.from_me ? n : n + 1,
        ]),
      )
    : chat.member_unread_count;
  const updated: Chat = {
    ...chat,
    member_unread_count: own,
    latest_message: message,
    latest_message_timestamp: at,
    unread_count: unread,
    message_unread_count: Math.max(0, ...Object.values(unread)),
  };
  return [updated, ...chats.slice(0, i), ...chats.slice(i + 1)];
}

/** The chat read on a phone (POST /chats/{chat_id}/read answered): its unread count there is 0. */
export function withChatRead(chats: readonly Chat[], chatId: string, phoneDigits: string): Chat[] {
  return chats.map((c) => {
    if (c.chat_id !== chatId) return c;
    const unread = Object.fromEntries(
      Object.entries(c.unread_count ?? {}).map(([k, n]) => [k, !phoneDigits || digits(k) === phoneDigits ? 0 : n]),
    );
    if (c.member_unread_count) {
      // A member's read is theirs alone (decision 0091): the phones' counts stay as they are.
      return { ...c, member_unread_count: Object.fromEntries(Object.keys(c.member_unread_count).map((email) => [email, 0])) };
    }
    return { ...c, unread_count: unread, message_unread_count: Math.max(0, ...Object.values(unread)) };
  });
}

/**
 * Text colour for a chip of this background (#rrggbb): black or white, whichever contrasts more
 * (WCAG relative luminance), so every label colour stays readable; a malformed colour reads as grey.
 */
export function chipTextColor(background: string): '#000' | '#fff' {
  const m = /^#?([0-9a-f]{6})$/i.exec(background.trim());
  const hex = m ? m[1] : '9e9e9e';
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  // contrast with black (l + 0.05) / 0.05 against with white 1.05 / (l + 0.05)
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000' : '#fff';
}

/** A label's colour as a chip's background (#rrggbb; grey when malformed). */
export const chipBackground = (color: string): string => (/^#[0-9a-f]{6}$/i.test(color.trim()) ? color.trim() : '#9e9e9e');
