import { SHORTCUTS, assignToMe, neighbourIndex, shortcutFor, ticketToClose, typingTarget, type KeyInput } from './keyboard-view';

const key = (k: string, more: Partial<KeyInput> = {}): KeyInput => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  typing: false,
  dialogOpen: false,
  ...more,
});

describe('the inbox keyboard shortcuts', () => {
  it('maps each listed key to its action, and nothing else', () => {
    for (const s of SHORTCUTS) for (const k of s.keys) expect(shortcutFor(key(k))).toBe(s.action);
    expect(new Set(SHORTCUTS.map((s) => s.action)).size).toBe(SHORTCUTS.length);
    expect(shortcutFor(key('J'))).toBeNull();
    expect(shortcutFor(key('x'))).toBeNull();
    expect(shortcutFor(key('Enter'))).toBeNull();
  });

  it('does not fire while typing, with a modifier, while composing or over a dialog; Escape leaves a field', () => {
    expect(shortcutFor(key('j', { typing: true }))).toBeNull();
    expect(shortcutFor(key('?', { typing: true }))).toBeNull();
    expect(shortcutFor(key('r', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(key('c', { metaKey: true }))).toBeNull();
    expect(shortcutFor(key('a', { altKey: true }))).toBeNull();
    expect(shortcutFor(key('j', { isComposing: true }))).toBeNull();
    expect(shortcutFor(key('j', { dialogOpen: true }))).toBeNull();
    expect(shortcutFor(key('Escape', { typing: true }))).toBe('leave-field');
    expect(shortcutFor(key('Escape'))).toBeNull();
  });

  it('tells text fields from controls where a letter types nothing', () => {
    expect(typingTarget({ tagName: 'INPUT', type: 'search' })).toBe(true);
    expect(typingTarget({ tagName: 'input', type: 'date' })).toBe(true);
    expect(typingTarget({ tagName: 'INPUT' })).toBe(true);
    expect(typingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(typingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(typingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(typingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(typingTarget({ tagName: 'INPUT', type: 'file' })).toBe(false);
    expect(typingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(typingTarget({ tagName: 'A' })).toBe(false);
    expect(typingTarget(null)).toBe(false);
  });

  it('moves to the neighbouring chat, starting at an end when none is open, stopping at the ends', () => {
    const ids = ['a', 'b', 'c'];
    expect(neighbourIndex(ids, undefined, 1)).toBe(0);
    expect(neighbourIndex(ids, undefined, -1)).toBe(2);
    expect(neighbourIndex(ids, 'gone', 1)).toBe(0);
    expect(neighbourIndex(ids, 'a', 1)).toBe(1);
    expect(neighbourIndex(ids, 'b', -1)).toBe(0);
    expect(neighbourIndex(ids, 'c', 1)).toBeNull();
    expect(neighbourIndex(ids, 'a', -1)).toBeNull();
    expect(neighbourIndex([], undefined, 1)).toBeNull();
  });

  it("closes the chat's newest open or in-progress ticket, none when all are closed", () => {
    const t = (id: string, status: string | null, created_at: string) => ({ id, status, created_at });
    const tickets = [
      t('old', 'open', '2026-01-01T00:00:00Z'),
      t('new', 'inprogress', '2026-02-01T00:00:00Z'),
      t('closed', 'closed', '2026-03-01T00:00:00Z'),
    ];
    expect(ticketToClose(tickets)?.id).toBe('new');
    expect(ticketToClose([tickets[2], t('arch', 'archived', '2026-04-01T00:00:00Z')])).toBeNull();
    expect(ticketToClose([])).toBeNull();
  });

  it('assigns to me unless the chat already is mine (any case)', () => {
    expect(assignToMe(null, 'me@example.com')).toEqual({ assigned_to: 'me@example.com' });
    expect(assignToMe('bo@example.com', 'me@example.com')).toEqual({ assigned_to: 'me@example.com' });
    expect(assignToMe('Me@Example.com', 'me@example.com')).toBe('already');
    expect(assignToMe(null, null)).toBe('unknown');
  });
});
