import type { SessionAnswer, SessionCommand } from '@mapi/contracts';
import { randomBytes } from 'node:crypto';
import type { SessionPort } from '../send-processor';

/**
 * Tests only: a phone session that records every send and answers like the connector
 * (deduplicating on sent_message_id). `next` scripts answers (e.g. disconnected) before sending.
 */
export class FakeSession implements SessionPort {
  sends: { id: string; at: number; phone: string; chat: string; performed_by?: string | null }[] = [];
  /** Every answer given to a send, scripted ones included (per phone, in order). */
  answers: { phone: string; id: string; answer: SessionAnswer | 'no-session' }[] = [];
  sentIds = new Map<string, string>();
  next: (SessionAnswer | 'no-session')[] = [];
  async send(phone: string, cmd: SessionCommand): Promise<SessionAnswer | 'no-session'> {
    if (cmd.cmd !== 'send') return { ok: true };
    const scripted = this.next.shift();
    if (scripted) {
      this.answers.push({ phone, id: cmd.sent_message_id, answer: scripted });
      return scripted;
    }
    this.sends.push({ id: cmd.sent_message_id, at: Date.now(), phone, chat: cmd.chat_id, performed_by: cmd.performed_by });
    const earlier = this.sentIds.get(cmd.sent_message_id);
    if (earlier) return { ok: true, sent: { unique_id: earlier, timestamp: new Date().toISOString(), duplicate: true } };
    const unique = `U${randomBytes(4).toString('hex').toUpperCase()}`;
    this.sentIds.set(cmd.sent_message_id, unique);
    return { ok: true, sent: { unique_id: unique, timestamp: new Date().toISOString(), duplicate: false } };
  }
}
