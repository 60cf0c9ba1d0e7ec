/**
 * The inbox's keyboard shortcuts (issue 33 item 4), free of the DOM: which key does what, when a
 * key is a shortcut at all, and which chat or ticket a shortcut acts on. use-shortcuts.ts listens.
 */

export type ShortcutAction = 'next' | 'previous' | 'search' | 'reply' | 'assign-me' | 'close-ticket' | 'help';

export interface Shortcut {
  action: ShortcutAction;
  /** `KeyboardEvent.key` values (case matters: Shift+J is not j). */
  keys: readonly string[];
  /** What the help overlay shows for the key. */
  label: string;
  description: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'next', keys: ['j'], label: 'j', description: 'Next chat in the list' },
  { action: 'previous', keys: ['k'], label: 'k', description: 'Previous chat in the list' },
  { action: 'search', keys: ['/'], label: '/', description: 'Search the chats' },
  { action: 'reply', keys: ['r'], label: 'r', description: 'Reply: write in the open chat' },
  { action: 'assign-me', keys: ['a'], label: 'a', description: 'Assign the open chat to me' },
  { action: 'close-ticket', keys: ['c'], label: 'c', description: "Close the open chat's ticket (with a note)" },
  { action: 'help', keys: ['?'], label: '?', description: 'Show these shortcuts' },
];

/** Escape is the one key that works inside a field: it leaves the field, so that the shortcuts work again. */
export const ESCAPE_HELP = 'Leave a text field (then the keys above work); close this list';

/** What a keydown needs to be told apart. `typing`: its target takes text (typingTarget). */
export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
  typing: boolean;
  /** A modal dialog is open (a confirmation, this help): its own keys only. */
  dialogOpen: boolean;
}

const BY_KEY = new Map(SHORTCUTS.flatMap((s) => s.keys.map((k) => [k, s.action] as const)));

/**
 * The action of a keydown, or null when it is not one: never with Ctrl, Cmd or Alt (the browser's
 * and the system's own), nor while composing (IME), typing in a field or a dialog is open — except
 * Escape in a field, which leaves it.
 */
export function shortcutFor(e: KeyInput): ShortcutAction | 'leave-field' | null {
  if (e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return null;
  if (e.key === 'Escape') return e.typing ? 'leave-field' : null;
  if (e.typing || e.dialogOpen) return null;
  return BY_KEY.get(e.key) ?? null;
}

/** Input types in which a letter is not text: a key pressed there may be a shortcut. */
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color', 'image']);

/** Whether a key pressed on this element types into it (text fields, selects' type-ahead, editable content). */
export function typingTarget(el: { tagName?: string; type?: string | null; isContentEditable?: boolean } | null): boolean {
  if (!el) return false;
  if (el.isContentEditable) return true;
  const tag = (el.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  return tag === 'INPUT' && !NOT_TEXT.has((el.type ?? 'text').toLowerCase());
}

/**
 * The index of the chat `step` away from the open one in the list: the first (next) or last
 * (previous) when none is open or the open one is not listed; null past either end or in an empty list.
 */
export function neighbourIndex(ids: readonly string[], openId: string | undefined, step: 1 | -1): number | null {
  if (ids.length === 0) return null;
  const at = openId === undefined ? -1 : ids.indexOf(openId);
  if (at === -1) return step === 1 ? 0 : ids.length - 1;
  const next = at + step;
  return next >= 0 && next < ids.length ? next : null;
}

const LIVE = new Set(['open', 'inprogress']);

/** The ticket "close ticket" acts on: the newest open or in-progress one of the chat (null: none is). */
export function ticketToClose<T extends { status: string | null; created_at: string }>(tickets: readonly T[]): T | null {
  return (
    tickets.filter((t) => LIVE.has(t.status ?? '')).reduce<T | null>((a, t) => (!a || t.created_at > a.created_at ? t : a), null) ?? null
  );
}

/** What "assign to me" does with the chat's assignee: nothing to do when it is already me. */
export function assignToMe(
  current: string | null | undefined,
  me: string | null | undefined,
): { assigned_to: string } | 'already' | 'unknown' {
  if (!me) return 'unknown';
  return current?.toLowerCase() === me.toLowerCase() ? 'already' : { assigned_to: me };
}
