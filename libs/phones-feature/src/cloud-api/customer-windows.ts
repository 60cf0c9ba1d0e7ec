import type { IngestMessage } from '@mapi/contracts';
import { Prisma, type PrismaClient } from '@mapi/db';

/** Meta's customer-service window: free-form messages go for 24 hours after the customer last wrote. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

export interface CustomerWindow {
  /** `open`: the customer wrote within 24 h; `closed`: known not to have (only templates go); `unknown`: left to Meta. */
  state: 'open' | 'closed' | 'unknown';
  last_inbound_at: Date | null;
  /** Meta's id of the customer's latest message (what a read mark names), if any came through the webhook. */
  last_wamid: string | null;
}

const waIdOf = (chatId: string) => chatId.replace(/@.*$/, '').replace(/\D/g, '');

/** The reason a free-form message is refused outside the window (the 422 at POST /message/send, or the failed job). */
export function closedWindowReason(w: CustomerWindow): string {
  const since = w.last_inbound_at
    ? `the customer last wrote at ${w.last_inbound_at.toISOString()}`
    : 'the customer has not written to this number';
  return (
    `The 24-hour customer-service window of this chat is closed (${since}): a Cloud API phone may send it only an ` +
    'approved template (send `template` instead of message or media; GET /cloud-api/templates lists them)'
  );
}

/**
 * When each customer of a Cloud API phone last wrote (cloud_api_windows), kept by the webhook. Only
 * callbacks tell it (the Cloud API has no history), so the window is `closed` only when known:
 * the latest message recorded is older than 24 h, or none was ever recorded while the phone's webhook
 * has been ours for more than 24 h. Otherwise a free-form send goes and Meta has the last word (131047).
 */
export class CustomerWindows {
  constructor(private readonly prisma: PrismaClient) {}

  /** Customers' messages of a callback: each sender's latest one moves their window (a late retry never moves it back). */
  async received(phoneId: string, messages: Pick<IngestMessage, 'chat_id' | 'unique_id' | 'timestamp' | 'from_me'>[]): Promise<void> {
    const latest = new Map<string, { at: Date; wamid: string }>();
    for (const m of messages) {
      const waId = waIdOf(m.chat_id);
      const at = new Date(m.timestamp);
      if (m.from_me || !waId || Number.isNaN(at.getTime())) continue;
      const seen = latest.get(waId);
      if (!seen || seen.at <= at) latest.set(waId, { at, wamid: m.unique_id });
    }
    if (latest.size === 0) return;
    const rows = [...latest].map(([waId, l]) => Prisma.sql`(${phoneId}, ${waId}, ${l.at}::timestamptz, ${l.wamid})`);
    await this.prisma.$executeRaw`
      INSERT INTO cloud_api_windows (phone_id, wa_id, last_inbound_at, last_wamid) VALUES ${Prisma.join(rows)}
      ON CONFLICT (phone_id, wa_id) DO UPDATE SET
        last_wamid = CASE WHEN EXCLUDED.last_inbound_at >= cloud_api_windows.last_inbound_at
                          THEN EXCLUDED.last_wamid ELSE cloud_api_windows.last_wamid END,
        last_inbound_at = GREATEST(cloud_api_windows.last_inbound_at, EXCLUDED.last_inbound_at)`;
  }

  /** The window of `chatId` (a number or `<number>@c.us`) on the phone, at `now`. */
  async of(phoneId: string, chatId: string, now = new Date()): Promise<CustomerWindow> {
    const [row] = await this.prisma.$queryRaw<{ created_at: Date; last_inbound_at: Date | null; last_wamid: string | null }[]>`
      SELECT p.created_at, w.last_inbound_at, w.last_wamid
      FROM cloud_api_phones p
      LEFT JOIN cloud_api_windows w ON w.phone_id = p.phone_id AND w.wa_id = ${waIdOf(chatId)}
      WHERE p.phone_id = ${phoneId}`;
    if (!row) return { state: 'unknown', last_inbound_at: null, last_wamid: null };
    const known = { last_inbound_at: row.last_inbound_at, last_wamid: row.last_wamid };
    if (row.last_inbound_at) return { state: now.getTime() - row.last_inbound_at.getTime() < WINDOW_MS ? 'open' : 'closed', ...known };
    return { state: now.getTime() - row.created_at.getTime() >= WINDOW_MS ? 'closed' : 'unknown', ...known };
  }
}
