import { isGroupChatId, type EventName, type IngestEvent } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import { mapMessage } from '../messages/map-message';
import { deliveryInfo, ingestRow, nextAck } from './ingest-rows';
import { insertNewMessages } from './insert-messages';

type Tx = Prisma.TransactionClient;
type Out = { type: EventName; org_id: string; phone_id: string; data: unknown };
const omitKeys = { id: true, phone_id: true } as const;

/**
 * Applies a batch of connector events to the chats store in one transaction, with the domain events
 * they cause (outbox). Idempotent: a redelivered batch changes nothing and emits nothing new.
 */
export class ApplyIngest {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(events: IngestEvent[]): Promise<void> {
    await this.prisma.$transaction(
      async (tx) => {
        const out: Out[] = [];
        for (const e of events) await this.apply(tx, e, out);
        await writeEvents(tx, out);
      },
      { timeout: 30_000 },
    );
  }

  private async apply(tx: Tx, e: IngestEvent, out: Out[]): Promise<void> {
    const who = { org_id: e.org_id, phone_id: e.phone_id };
    switch (e.kind) {
      case 'messages-upsert': {
        const rows = e.messages.map((m) => ingestRow(e, m));
        await this.ensureChats(tx, e, [...new Set(rows.map((r) => r.chat_id))].map((chat_id) => ({ chat_id, chat_name: null, chat_type: isGroupChatId(chat_id) ? 'group' : 'user' })), out);
        const created = await insertNewMessages(tx, rows);
        if (e.type === 'notify') for (const row of created) out.push({ type: 'message.created', ...who, data: mapMessage(row) });
        const createdIds = new Set(created.map((r) => r.message_id));
        for (const row of rows.filter((r) => !createdIds.has(r.message_id))) {
          await this.applyAck(tx, e, row.message_id, row.chat_id, row.ack as number, out); // a re-read may carry a newer ack
        }
        return;
      }
      case 'receipt':
        return this.applyAck(tx, e, `${e.from_me}_${e.chat_id}_${e.unique_id}`, e.chat_id, e.ack, out, e.participant, e.at);
      case 'edit':
      case 'delete': {
        const where = { phone_id_message_id: { phone_id: e.phone_id, message_id: `${e.from_me}_${e.chat_id}_${e.unique_id}` } };
        const current = await tx.message.findUnique({ where, select: { body: true, is_deleted: true } });
        if (!current || (e.kind === 'edit' && current.body === e.body) || (e.kind === 'delete' && current.is_deleted)) return;
        const data = e.kind === 'edit' ? { body: e.body, prev_body: current.body, updated_at: new Date() } : { is_deleted: true, updated_at: new Date() };
        const row = await tx.message.update({ where, data, omit: omitKeys });
        out.push({ type: e.kind === 'edit' ? 'message.updated' : 'message.deleted', ...who, data: mapMessage(row) });
        return;
      }
      case 'chats-upsert':
        return this.ensureChats(tx, e, e.chats, out);
      case 'groups-upsert':
        await this.ensureChats(tx, e, e.groups.map((g) => ({ chat_id: g.chat_id, chat_name: g.subject, chat_type: 'group' as const })), out);
        for (const g of e.groups) {
          await tx.groupParticipant.deleteMany({ where: { phone_id: e.phone_id, chat_id: g.chat_id, contact_id: { notIn: g.participants.map((p) => p.id) } } });
          for (const p of g.participants) {
            const key = { phone_id: e.phone_id, chat_id: g.chat_id, contact_id: p.id };
            const flags = { is_admin: p.admin, is_super_admin: p.super_admin ?? false, updated_at: new Date() };
            await tx.groupParticipant.upsert({ where: { phone_id_chat_id_contact_id: key }, create: { ...key, org_id: e.org_id, ...flags }, update: flags });
          }
        }
        return;
    }
  }

  private async ensureChats(tx: Tx, e: { org_id: string; phone_id: string }, chats: { chat_id: string; chat_name: string | null; chat_type: string }[], out: Out[]) {
    if (!chats.length) return;
    const created = await tx.chat.createManyAndReturn({ data: chats.map((c) => ({ ...c, org_id: e.org_id, phone_id: e.phone_id })), skipDuplicates: true });
    for (const c of created) out.push({ type: 'chat.created', org_id: e.org_id, phone_id: e.phone_id, data: { chat_id: c.chat_id, chat_name: c.chat_name, chat_type: c.chat_type, org_id: c.org_id, org_phone: null, phone_id: c.phone_id, created_at: c.created_at.toISOString() } });
    for (const c of chats.filter((c) => c.chat_name)) {
      await tx.chat.updateMany({ where: { phone_id: e.phone_id, chat_id: c.chat_id, NOT: { chat_name: c.chat_name } }, data: { chat_name: c.chat_name, updated_at: new Date() } });
    }
  }

  private async applyAck(tx: Tx, e: { org_id: string; phone_id: string }, messageId: string, chatId: string, ack: number, out: Out[], participant?: string, at?: number) {
    const where = { phone_id_message_id: { phone_id: e.phone_id, message_id: messageId } };
    const current = await tx.message.findUnique({ where, select: { ack: true, delivery_info: true } });
    if (!current) return;
    const next = nextAck(current.ack, ack);
    let info: Prisma.InputJsonValue;
    if (participant) {
      info = withParticipant(current.delivery_info as DeliveryMaps, participant, ack, at ?? Date.now());
      if (next === null && JSON.stringify(info) === JSON.stringify(current.delivery_info)) return;
    } else {
      if (next === null) return;
      info = isGroupChatId(chatId) ? (current.delivery_info as Prisma.InputJsonValue) : deliveryInfo(next, chatId);
    }
    const row = await tx.message.update({ where, data: { ack: next ?? current.ack, delivery_info: info, updated_at: new Date() }, omit: omitKeys });
    out.push({ type: 'message.ack.updated', org_id: e.org_id, phone_id: e.phone_id, data: mapMessage(row) });
  }
}

type DeliveryMaps = { delivered_count: number; read_count: number; pending: string[]; delivered?: Record<string, number>; read?: Record<string, number> };

/** A group receipt: the participant joins the delivered (ack 2) or read (ack ≥ 3) map. */
function withParticipant(info: DeliveryMaps, participant: string, ack: number, at: number): Prisma.InputJsonValue {
  const delivered = { ...(info.delivered ?? {}) };
  const read = { ...(info.read ?? {}) };
  if (ack >= 2) delivered[participant] ??= at;
  if (ack >= 3) read[participant] ??= at;
  return { delivered_count: Object.keys(delivered).length, read_count: Object.keys(read).length, pending: info.pending ?? [], delivered, read };
}
