import { isLidUser, jidNormalizedUser } from 'baileys';

/**
 * What the library told us about LID identifiers (privacy ids `<n>@lid`) and the phone numbers behind
 * them: from contacts carrying both `id` and `lid`, and from `chats.phoneNumberShare`. Where a LID
 * is known, messages, receipts and group participants name the phone number instead.
 */
export class LidMap {
  private readonly pnByLid = new Map<string, string>();

  /** Remembers `lid` ↔ `pn` (either order); ignores pairs that are not one LID and one phone jid. */
  learn(a: string | null | undefined, b: string | null | undefined): void {
    if (!a || !b) return;
    const [lid, pn] = isLidUser(a) ? [a, b] : [b, a];
    if (!isLidUser(lid) || isLidUser(pn) || !pn.endsWith('@s.whatsapp.net')) return;
    this.pnByLid.set(jidNormalizedUser(lid), jidNormalizedUser(pn));
  }

  learnContacts(contacts: readonly { id?: string | null; lid?: string | null }[]): void {
    for (const c of contacts) this.learn(c.id, c.lid);
  }

  /** The phone jid behind a LID, if known. */
  pnOf(lid: string): string | undefined {
    return this.pnByLid.get(jidNormalizedUser(lid));
  }

  get size(): number {
    return this.pnByLid.size;
  }
}
