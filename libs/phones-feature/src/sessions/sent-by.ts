import type { IngestMessage } from '@mapi/contracts';

/** How long a send's sender is kept for its message to come back from the network (Baileys' echo, the sandbox's sync). */
export const SENT_BY_KEEP_MS = 10 * 60_000;
/** At most this many senders kept per session (the oldest go first): a flood of sends cannot grow it without end. */
export const SENT_BY_MAX = 50_000;

/**
 * Who sent the messages a session sends (a send or forward command's performed_by), by their sent_message_id, until
 * the sent message is published to ingest: each connector reports its own sends as messages carrying that
 * sent_message_id (the Cloud API at once, Baileys on the library's echo, the sandbox on its next sync), and `stamp`
 * writes the sender on them. Kept in the session's memory: a message whose report comes after the session restarted
 * (its replica killed between the network taking it and the report) is stored without a sender, as Baileys' echo
 * then loses its sent_message_id too.
 */
export class SentBy {
  private readonly senders = new Map<string, { performedBy: string; until: number }>();

  constructor(
    private readonly keepMs = SENT_BY_KEEP_MS,
    private readonly max = SENT_BY_MAX,
    private readonly now: () => number = Date.now,
  ) {}

  /** A send is about to go: its sender, kept for its report (null or absent: nothing kept). */
  note(sentMessageId: string, performedBy: string | null | undefined): void {
    if (!performedBy) return;
    this.senders.delete(sentMessageId); // re-inserted last: the map stays in order of expiry
    this.senders.set(sentMessageId, { performedBy, until: this.now() + this.keepMs });
    this.prune();
  }

  /** The messages with the sender of each one this session sent (a message already naming one keeps it). */
  stamp(messages: IngestMessage[]): IngestMessage[] {
    if (!this.senders.size) return messages;
    this.prune();
    return messages.map((m) => {
      const sender = m.sent_message_id && !m.performed_by ? this.senders.get(m.sent_message_id) : undefined;
      return sender ? { ...m, performed_by: sender.performedBy } : m;
    });
  }

  get size(): number {
    return this.senders.size;
  }

  private prune(): void {
    const now = this.now();
    for (const [id, s] of this.senders) {
      if (s.until > now && this.senders.size <= this.max) break;
      this.senders.delete(id);
    }
  }
}
