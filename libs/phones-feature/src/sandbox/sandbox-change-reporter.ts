import type { MessageChange } from '../connector/phone-connector';
import type { SandboxChanges } from './sandbox-changes';

/** Changes handed on per read. */
const PAGE = 500;
/** Reads handed on whose publication is not yet acknowledged, at most; a further read waits for the oldest. */
const MAX_UNACKED = 8;

/**
 * Hands a sandbox phone's pending changes (edits, deletions, reactions, pins) on as `messages.update`,
 * without waiting for one read's publication to be acknowledged before the next read: `emit` sends
 * its events at once, in order, on one NATS connection (the session's publisher), so the stream keeps
 * the order in which they were read, and the acknowledgement and the deletion of the reported rows
 * follow in the background. A change made while the previous ones are being acknowledged is read at
 * once instead of after that round trip and the deletion (the sandbox phone's session is the largest
 * stage of a change's way to a webhook: docs/benchmarks.md, "Reactions and edits to a webhook").
 *
 * At least once: rows are deleted only after their publication is acknowledged, so a
 * crash re-reads them (JetStream drops a copy within its duplicate window, the id being a hash of the
 * event, and ingestion is idempotent). Rows handed on and not yet deleted are left out of the reads
 * (by id: the ids of a sequence commit out of order, so a cursor could skip one); a publication that
 * fails puts its rows back, and `retry` asks for a sync that reads them again.
 */
export class SandboxChangeReporter {
  /** Ids handed on and not yet deleted: left out of the reads. */
  private readonly handedOn = new Set<bigint>();
  /** Each read handed on, until acknowledged and deleted (or failed). */
  private readonly unacked = new Set<Promise<void>>();
  /** Acknowledged ids waiting for the deletion under way to end (deleted together by the next). */
  private acked: bigint[] = [];
  private deleting?: Promise<void>;

  constructor(
    private readonly changes: SandboxChanges,
    private readonly phoneId: string,
    private readonly emit: (changes: MessageChange[]) => Promise<void>,
    private readonly retry: () => void,
  ) {}

  /** Reads what is pending and hands it on; resolves once it is sent (its acknowledgement may still be pending). */
  async report(): Promise<void> {
    for (let more = true; more;) {
      while (this.unacked.size >= MAX_UNACKED) await Promise.race(this.unacked);
      const rows = await this.changes.pending(this.phoneId, PAGE, [...this.handedOn]);
      if (!rows.length) return;
      more = rows.length === PAGE;
      const ids = rows.map((r) => r.id);
      for (const id of ids) this.handedOn.add(id);
      // emit sends every event before its first await (so before the next read's); only the acks are awaited.
      const sent = this.emit(rows.map((r) => ({ chat_id: r.chat_id, unique_id: r.unique_id, from_me: r.from_me, ...r.change })));
      const done: Promise<void> = sent.then(
        () => this.deleteReported(ids),
        () => {
          for (const id of ids) this.handedOn.delete(id); // read and handed on again
          this.retry();
        },
      );
      this.unacked.add(done);
      void done.finally(() => this.unacked.delete(done));
    }
  }

  /**
   * Resolves when every read handed on so far is acknowledged and deleted, or has failed (and was put
   * back). Reads handed on after the call are not waited for (under a steady flow there may be no
   * moment with none in flight).
   */
  async settled(): Promise<void> {
    await Promise.all([...this.unacked]);
  }

  /** Deletes acknowledged rows, one statement at a time; those acknowledged meanwhile go in the next. */
  private deleteReported(ids: bigint[]): Promise<void> {
    this.acked.push(...ids);
    this.deleting ??= (async () => {
      while (this.acked.length) {
        const batch = this.acked;
        this.acked = [];
        try {
          await this.changes.markReported(batch);
        } catch {
          // Not deleted: handed on again by a later read (a copy JetStream drops; ingestion is idempotent).
        }
        for (const id of batch) this.handedOn.delete(id);
      }
      this.deleting = undefined;
    })();
    return this.deleting;
  }
}
