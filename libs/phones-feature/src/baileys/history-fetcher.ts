import type { IngestMessage } from '@mapi/contracts';
import { proto, toNumber, type BaileysEventMap, type WAMessage, type WAMessageKey } from 'baileys';
import { toIngestMessage, type MapContext } from './baileys-mapping';
import type { BaileysSocket } from './baileys-connector';

const PAGE = 50;
type HistorySet = BaileysEventMap['messaging-history.set'];

/**
 * History on demand: the library asks the phone for messages older than the oldest one this session
 * has seen in the chat; the answer arrives later as a `messaging-history.set` (ON_DEMAND), matched
 * by its request id. Pages of 50 until `count`, an empty page, or a timeout.
 */
export class HistoryFetcher {
  private readonly oldest = new Map<string, { key: WAMessageKey; ms: number }>();
  private readonly waiting = new Map<string, (set: HistorySet) => void>();

  constructor(
    private readonly socket: () => BaileysSocket | undefined,
    private readonly ctx: MapContext,
    private readonly timeoutMs: number,
  ) {}

  /** Remembers the chat's oldest message (the anchor of the next request). */
  saw(msg: WAMessage, chatId: string): void {
    const ms = toNumber(msg.messageTimestamp as number) * 1000;
    const current = this.oldest.get(chatId);
    if (ms && (!current || ms < current.ms)) this.oldest.set(chatId, { key: msg.key, ms });
  }

  received(set: HistorySet): void {
    if (set.syncType !== proto.HistorySync.HistorySyncType.ON_DEMAND) return;
    const byId = set.peerDataRequestSessionId ? this.waiting.get(set.peerDataRequestSessionId) : undefined;
    // Without a request id: the oldest waiting request (the phone answers in order).
    (byId ?? this.waiting.values().next().value)?.(set);
  }

  async fetch(chatId: string, count: number): Promise<IngestMessage[]> {
    const out: IngestMessage[] = [];
    while (out.length < count) {
      const anchor = this.oldest.get(chatId);
      const sock = this.socket();
      if (!anchor || !sock) break;
      const requestId = await sock.fetchMessageHistory(Math.min(PAGE, count - out.length), anchor.key, anchor.ms);
      const set = await this.answer(requestId);
      const page = (set?.messages ?? [])
        .map((m) => ({ raw: m, m: toIngestMessage(m, this.ctx) }))
        .filter((x): x is { raw: WAMessage; m: IngestMessage } => !!x.m && x.m.chat_id === chatId);
      page.forEach((x) => this.saw(x.raw, chatId));
      if (!page.length || this.oldest.get(chatId)?.ms === anchor.ms) {
        out.push(...page.map((x) => x.m));
        break;
      }
      out.push(...page.map((x) => x.m));
    }
    return out.slice(0, count);
  }

  private answer(requestId: string): Promise<HistorySet | null> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(null), this.timeoutMs);
      const done = (set: HistorySet | null) => {
        clearTimeout(timer);
        this.waiting.delete(requestId);
        resolve(set);
      };
      this.waiting.set(requestId, done);
    });
  }
}
