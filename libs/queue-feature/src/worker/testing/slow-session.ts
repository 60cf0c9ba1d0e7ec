import type { SessionAnswer, SessionCommand } from '@mapi/contracts';
import { randomBytes } from 'node:crypto';
import type { SessionPort } from '../send-processor';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Tests only: a phone session whose every send takes `delayMs` (a Graph API round trip), recording what
 * was in flight together: the most sends at once, per phone and per chat, and each chat's sends in the
 * order they went. `throttle(n)` answers the next `n` sends `throttled` (after the delay, nothing sent).
 * Deduplicates on sent_message_id like the connector.
 */
export class SlowSession implements SessionPort {
  sends: { id: string; phone: string; chat: string; started: number; ended: number }[] = [];
  answers: { id: string; chat: string; reason: string }[] = [];
  sentIds = new Map<string, string>();
  /** Most sends in flight at once, per phone. */
  maxInFlight = new Map<string, number>();
  /** Most sends in flight at once to any one chat. */
  maxPerChat = 0;
  private readonly inFlight = new Map<string, number>();
  private readonly chatInFlight = new Map<string, number>();
  private toThrottle = 0;

  constructor(private readonly delayMs: number) {}

  throttle(n: number): void {
    this.toThrottle = n;
  }

  /** The ids sent to each chat of the phone, in the order they went. */
  byChat(phone: string): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const s of this.sends.filter((x) => x.phone === phone)) out.set(s.chat, [...(out.get(s.chat) ?? []), s.id]);
    return out;
  }

  async send(phone: string, cmd: SessionCommand): Promise<SessionAnswer | 'no-session'> {
    if (cmd.cmd !== 'send') return { ok: true };
    const chatKey = `${phone}|${cmd.chat_id}`;
    const now = (this.inFlight.get(phone) ?? 0) + 1;
    this.inFlight.set(phone, now);
    this.maxInFlight.set(phone, Math.max(this.maxInFlight.get(phone) ?? 0, now));
    const inChat = (this.chatInFlight.get(chatKey) ?? 0) + 1;
    this.chatInFlight.set(chatKey, inChat);
    this.maxPerChat = Math.max(this.maxPerChat, inChat);
    const started = Date.now();
    const throttled = this.toThrottle > 0;
    if (throttled) this.toThrottle--;
    try {
      await sleep(this.delayMs);
      if (throttled) {
        this.answers.push({ id: cmd.sent_message_id, chat: cmd.chat_id, reason: 'throttled' });
        return { ok: false, reason: 'throttled', message: "Meta's rate limit: Rate limit hit (Meta error 130429)" };
      }
      this.sends.push({ id: cmd.sent_message_id, phone, chat: cmd.chat_id, started, ended: Date.now() });
      const earlier = this.sentIds.get(cmd.sent_message_id);
      if (earlier) return { ok: true, sent: { unique_id: earlier, timestamp: new Date().toISOString(), duplicate: true } };
      const unique = `U${randomBytes(4).toString('hex').toUpperCase()}`;
      this.sentIds.set(cmd.sent_message_id, unique);
      return { ok: true, sent: { unique_id: unique, timestamp: new Date().toISOString(), duplicate: false } };
    } finally {
      this.inFlight.set(phone, (this.inFlight.get(phone) ?? 1) - 1);
      this.chatInFlight.set(chatKey, (this.chatInFlight.get(chatKey) ?? 1) - 1);
    }
  }
}
