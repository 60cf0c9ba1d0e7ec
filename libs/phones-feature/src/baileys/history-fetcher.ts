import type { IngestMessage } from '@mapi/contracts';
import { proto, toNumber, type BaileysEventMap, type WAMessage, type WAMessageKey } from 'baileys';
import type { BaileysSocket, HistoryAnchor } from './baileys-types';

const PAGE = 50;
type HistorySet = BaileysEventMap['messaging-history.set'];

/** A library message and what it maps to. */
export interface Mapped {
  raw: WAMessage;
  m: IngestMessage;
}

/**
 * History on demand: the library asks the phone for messages older than the oldest one this session
 * has seen in the chat; the answer arrives later as a `messaging-history.set` (ON_DEMAND), matched
 * by its request id. Pages of 50 until `count`, an empty page, or a timeout.
 * Anchors that moved since the last `takeUnsaved()` are kept apart so the connector persists them
 * (baileys_history_anchors); `restore()` loads them when a session starts on another replica.
 */
export class HistoryFetcher {
  private readonly oldest = new Map<string, { key: WAMessageKey; ms: number }>();
  private readonly unsaved = new Set<string>();
  private readonly waiting = new Map<string, { claim: () => (mapped: readonly Mapped[]) => void }>();

  constructor(
    private readonly socket: () => BaileysSocket | undefined,
    private readonly timeoutMs: number,
  ) {}

  /** Remembers the chat's oldest message (the anchor of the next request). */
  saw(msg: WAMessage, chatId: string): void {
    const ms = toNumber(msg.messageTimestamp as number) * 1000;
    const current = this.oldest.get(chatId);
    if (ms && (!current || ms < current.ms)) {
      this.oldest.set(chatId, { key: msg.key, ms });
      this.unsaved.add(chatId);
    }
  }

  /** Forgets every anchor (a logout: the next pairing may be another account). */
  clear(): void {
    this.oldest.clear();
    this.unsaved.clear();
  }

  /** Anchors loaded from storage (an older anchor already seen by this session wins). */
  restore(anchors: readonly HistoryAnchor[]): void {
    for (const a of anchors) {
      const current = this.oldest.get(a.chat_id);
      if (!current || a.ms < current.ms) this.oldest.set(a.chat_id, { key: a.key, ms: a.ms });
    }
  }

  /** The anchors that moved since the last call (to persist). */
  takeUnsaved(): HistoryAnchor[] {
    const out: HistoryAnchor[] = [];
    for (const chatId of this.unsaved) {
      const a = this.oldest.get(chatId);
      if (a) out.push({ chat_id: chatId, key: a.key, ms: a.ms });
    }
    this.unsaved.clear();
    return out;
  }

  /** Anchors whose saving failed: saved with the next batch. */
  putBack(anchors: readonly HistoryAnchor[]): void {
    for (const a of anchors) this.unsaved.add(a.chat_id);
  }

  /**
   * A history set arrived: an ON_DEMAND answer claims the request waiting for it at once (its timeout
   * no longer runs while the connector stores the set's media); the answer is delivered, mapped, by
   * the function returned.
   */
  arrived(set: HistorySet): (mapped: readonly Mapped[]) => void {
    if (set.syncType !== proto.HistorySync.HistorySyncType.ON_DEMAND) return () => undefined;
    const byId = set.peerDataRequestSessionId ? this.waiting.get(set.peerDataRequestSessionId) : undefined;
    // Without a request id: the oldest waiting request (the phone answers in order).
    const waiter = byId ?? this.waiting.values().next().value;
    if (!waiter) return () => undefined;
    return waiter.claim();
  }

  async fetch(chatId: string, count: number): Promise<IngestMessage[]> {
    const out: IngestMessage[] = [];
    while (out.length < count) {
      const anchor = this.oldest.get(chatId);
      const sock = this.socket();
      if (!anchor || !sock) break;
      const requestId = await sock.fetchMessageHistory(Math.min(PAGE, count - out.length), anchor.key, anchor.ms);
      const page = ((await this.answer(requestId)) ?? []).filter((x) => x.m.chat_id === chatId);
      page.forEach((x) => this.saw(x.raw, chatId));
      out.push(...page.map((x) => x.m));
      if (!page.length || this.oldest.get(chatId)?.ms === anchor.ms) break;
    }
    return out.slice(0, count);
  }

  private answer(requestId: string): Promise<readonly Mapped[] | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(null), this.timeoutMs);
      const done = (set: readonly Mapped[] | null) => {
        clearTimeout(timer);
        this.waiting.delete(requestId);
        resolve(set);
      };
      this.waiting.set(requestId, {
        claim: () => {
          clearTimeout(timer);
          this.waiting.delete(requestId);
          return done;
        },
      });
    });
  }
}
