import type { Prisma } from '@mapi/db';
import { slotOf, type MessageFact } from './message-facts';

/**
 * The team figures' counters (docs/services/analytics.md, "Team"): per (organization, 15-minute slot, phone, chat, sender)
 * the messages a member sent, moved by the newly counted messages of a batch (`fresh`: each message copy once, as the
 * insert into analytics_messages decided), in the caller's transaction. A message's sender never changes once counted.
 */
export async function writeMemberSlots(tx: Prisma.TransactionClient, fresh: readonly MessageFact[]): Promise<void> {
  const rows = new Map<string, { org_id: string; slot: string; phone_id: string; chat_id: string; member: string; sent: number }>();
  for (const f of fresh) {
    if (!f.from_me || !f.performed_by) continue;
    const slot = new Date(slotOf(f.at)).toISOString();
    const k = [f.org_id, slot, f.phone_id, f.chat_id, f.performed_by].join('\u0000');
    const row = rows.get(k) ?? { org_id: f.org_id, slot, phone_id: f.phone_id, chat_id: f.chat_id, member: f.performed_by, sent: 0 };
    row.sent += 1;
    rows.set(k, row);
  }
  if (!rows.size) return;
  // key order: batches touching the same rows lock them in the same order
  const sorted = [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
  await tx.$executeRawUnsafe(
    `INSERT INTO analytics_member_slots AS s (org_id, slot, phone_id, chat_id, member, sent)
     SELECT x.org_id, x.slot, x.phone_id, x.chat_id, x.member, x.sent
     FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, slot timestamptz, phone_id text, chat_id text, member text, sent int)
     ON CONFLICT (org_id, slot, phone_id, chat_id, member) DO UPDATE SET sent = s.sent + EXCLUDED.sent`,
    JSON.stringify(sorted),
  );
}
