import { isLidUser, jidNormalizedUser } from 'baileys';

/**
 * What the library told us about LID identifiers (privacy ids `<n>@lid`) and the phone numbers behind
 * them: from contacts carrying both `id` and `lid`, and from `chats.phoneNumberShare`. Where a LID
 * is known, messages, receipts and group participants name the phone number instead.
 * Pairs learned since the last `takeUnsaved()` are kept apart so the connector persists them
 * (baileys_lids); `restore()` loads persisted pairs when a session starts on another replica.
 */
export class LidMap {
  private readonly pnByLid = new Map<string, string>();
  private readonly unsaved = new Map<string, string>();

  /** Remembers `lid` ↔ `pn` (either order); ignores pairs that are not one LID and one phone jid. */
  learn(a: string | null | undefined, b: string | null | undefined): void {
    if (!a || !b) return;
    const [lid, pn] = isLidUser(a) ? [a, b] : [b, a];
    if (!isLidUser(lid) || isLidUser(pn) || !pn.endsWith('@s.whatsapp.net')) return;
    const key = jidNormalizedUser(lid);
    const value = jidNormalizedUser(pn);
    if (this.pnByLid.get(key) === value) return;
    this.pnByLid.set(key, value);
    this.unsaved.set(key, value);
  }

  learnContacts(contacts: readonly { id?: string | null; lid?: string | null }[]): void {
    for (const c of contacts) this.learn(c.id, c.lid);
  }

  /** Forgets every pair (a logout: the next pairing may be another account). */
  clear(): void {
    this.pnByLid.clear();
    this.unsaved.clear();
  }

  /** Pairs loaded from storage: known, and not to be saved again. */
  restore(pairs: readonly { lid: string; pn: string }[]): void {
    for (const { lid, pn } of pairs) if (!this.unsaved.has(lid)) this.pnByLid.set(lid, pn);
  }

  /** The pairs learned since the last call (to persist); handed back with `putBack` when saving failed. */
  takeUnsaved(): { lid: string; pn: string }[] {
    const out = [...this.unsaved].map(([lid, pn]) => ({ lid, pn }));
    this.unsaved.clear();
    return out;
  }

  putBack(pairs: readonly { lid: string; pn: string }[]): void {
    for (const { lid, pn } of pairs) if (!this.unsaved.has(lid) && this.pnByLid.get(lid) === pn) this.unsaved.set(lid, pn);
  }

  /** The phone jid behind a LID, if known. */
  pnOf(lid: string): string | undefined {
    return this.pnByLid.get(jidNormalizedUser(lid));
  }

  get size(): number {
    return this.pnByLid.size;
  }
}
