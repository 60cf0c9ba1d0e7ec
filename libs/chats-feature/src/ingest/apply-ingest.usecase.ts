import { isGroupChatId, type IngestEvent } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import { chatOfMessage, ensureChats, type ChatSeen } from './ensure-chats';
import { deliveryInfo, ingestRow, nextAck } from './ingest-rows';
import { insertNewMessages } from './insert-messages';
import { messageEvent, type OutEvent } from './out-event';
import { applyPollResults } from './apply-reactions';
import { applyChanges, isChange, type ChangeIn } from './apply-changes';
import { applyNotifications } from './apply-notifications';
import { applyGroupSettings } from './apply-group-settings';
import { applyPin } from './apply-pin';
import { raiseAcks, type AckSeen } from './raise-acks';
import { recordActivity } from './record-activity';
import { learnContacts } from './learn-contacts';

type Tx = Prisma.TransactionClient;
type Upsert = Extract<IngestEvent, { kind: 'messages-upsert' }>;
const omitKeys = { id: true } as const;

/**
 * Applies a batch of connector events to the chats store in one transaction, with the domain events
 * they cause (outbox). Idempotent: a redelivered batch changes nothing and emits nothing new.
 *
 * Consecutive message upserts — nearly all of the traffic — are applied together, whatever their
 * phones: one statement each for chats, new messages and re-read acks, so the cost per message does
 * not grow when events are small (many phones, a few messages each). Consecutive edits, deletions
 * and reactions are applied together the same way (applyChanges). Other events apply one by one, in
 * order, between those runs.
 */
export class ApplyIngest {
  constructor(
    private readonly prisma: PrismaClient,
    /** Called after a batch that wrote events has committed (the relay then publishes at once). */
    private readonly onEventsWritten: () => void = () => undefined,
  ) {}

  async execute(events: IngestEvent[]): Promise<void> {
    let written = 0;
    await this.prisma.$transaction(
      async (tx) => {
        const out: OutEvent[] = [];
        for (let i = 0; i < events.length;) {
          let j = i;
          while (j < events.length && events[j].kind === 'messages-upsert') j++;
          if (j > i) {
            await this.upsertMessages(tx, events.slice(i, j) as Upsert[], out);
            i = j;
            continue;
          }
          while (j < events.length && isChange(events[j])) j++;
          if (j > i) {
            await applyChanges(tx, events.slice(i, j) as ChangeIn[], out);
            i = j;
          } else await this.applyOne(tx, events[i++] as Exclude<IngestEvent, Upsert | ChangeIn>, out);
        }
        await writeEvents(tx, out);
        written = out.length;
      },
      { timeout: 30_000 },
    );
    if (written) this.onEventsWritten();
  }

  private async upsertMessages(tx: Tx, upserts: Upsert[], out: OutEvent[]): Promise<void> {
    const fresh = new Map<string, { row: Prisma.MessageCreateManyInput; notify: boolean }>();
    const reread: AckSeen[] = [];
    const chats = new Map<string, ChatSeen>();
    for (const e of upserts) {
      for (const m of e.messages) {
        const row = ingestRow(e, m);
        const key = `${e.phone_id}\u0000${row.message_id}`;
        const first = fresh.get(key);
        if (first) {
          first.notify ||= e.type === 'notify';
          reread.push({ phone_id: e.phone_id, message_id: row.message_id, ack: row.ack as number }); // a later copy may carry a newer ack
        } else {
          fresh.set(key, { row, notify: e.type === 'notify' });
          const chatKey = `${e.phone_id}\u0000${m.chat_id}`;
          if (!chats.has(chatKey)) chats.set(chatKey, chatOfMessage(e, m.chat_id));
        }
      }
    }
    await ensureChats(tx, [...chats.values()], out);
    await learnContacts(tx, upserts);
    const created = await insertNewMessages(
      tx,
      [...fresh.values()].map((f) => f.row),
    );
    await recordActivity(tx, created, (row) => fresh.get(`${row.phone_id}\u0000${row.message_id}`)?.notify ?? false);
    const createdKeys = new Set<string>();
    for (const row of created) {
      const key = `${row.phone_id}\u0000${row.message_id}`;
      createdKeys.add(key);
      if (fresh.get(key)?.notify) out.push(messageEvent('message.created', row));
    }
    for (const [key, { row }] of fresh) {
      if (!createdKeys.has(key)) reread.push({ phone_id: row.phone_id, message_id: row.message_id, ack: row.ack as number }); // stored before: its ack may have moved
    }
    for (const { row, before } of await raiseAcks(tx, reread)) out.push(messageEvent('message.ack.updated', row, before));
  }

  private async applyOne(tx: Tx, e: Exclude<IngestEvent, Upsert | ChangeIn>, out: OutEvent[]): Promise<void> {
    switch (e.kind) {
      case 'receipt':
        return this.applyReceipt(tx, e, out);
      case 'poll-results':
        return applyPollResults(tx, e, out);
      case 'pin':
        return applyPin(tx, e, out);
      case 'group-notifications':
        return applyNotifications(tx, e, out);
      case 'chats-upsert':
        return ensureChats(
          tx,
          e.chats.map((c) => ({ ...c, org_id: e.org_id, phone_id: e.phone_id, org_phone: e.org_phone })),
          out,
        );
      case 'groups-upsert':
        await ensureChats(
          tx,
          e.groups.map((g) => ({
            org_id: e.org_id,
            phone_id: e.phone_id,
            org_phone: e.org_phone,
            chat_id: g.chat_id,
            chat_name: g.subject,
            chat_type: 'group',
          })),
          out,
        );
        for (const g of e.groups) {
          await tx.groupParticipant.deleteMany({
            where: { phone_id: e.phone_id, chat_id: g.chat_id, contact_id: { notIn: g.participants.map((p) => p.id) } },
          });
          for (const p of g.participants) {
            const key = { phone_id: e.phone_id, chat_id: g.chat_id, contact_id: p.id };
            const flags = { is_admin: p.admin, is_super_admin: p.super_admin ?? false, updated_at: new Date() };
            await tx.groupParticipant.upsert({
              where: { phone_id_chat_id_contact_id: key },
              create: { ...key, org_id: e.org_id, ...flags },
              update: flags,
            });
          }
        }
        return applyGroupSettings(tx, e);
    }
  }

  /** A receipt: 1:1 acks move up; a group receipt names its participant and fills the receipt maps. */
  private async applyReceipt(tx: Tx, e: Extract<IngestEvent, { kind: 'receipt' }>, out: OutEvent[]): Promise<void> {
    const where = { phone_id_message_id: { phone_id: e.phone_id, message_id: `${e.from_me}_${e.chat_id}_${e.unique_id}` } };
    const current = await tx.message.findUnique({ where, select: { ack: true, delivery_info: true, updated_at: true } });
    if (!current) return;
    const next = nextAck(current.ack, e.ack);
    let info: Prisma.InputJsonValue;
    if (e.participant) {
      info = withParticipant(current.delivery_info as DeliveryMaps, e.participant, e.ack, e.at ?? Date.now());
      if (next === null && JSON.stringify(info) === JSON.stringify(current.delivery_info)) return;
    } else {
      if (next === null) return;
      info = isGroupChatId(e.chat_id) ? (current.delivery_info as Prisma.InputJsonValue) : deliveryInfo(next, e.chat_id);
    }
    const row = await tx.message.update({
      where,
      data: { ack: next ?? current.ack, delivery_info: info, updated_at: new Date() },
      omit: omitKeys,
    });
    out.push(messageEvent('message.ack.updated', row, current));
  }
}

type DeliveryMaps = {
  delivered_count: number;
  read_count: number;
  pending: string[];
  delivered?: Record<string, number>;
  read?: Record<string, number>;
};

/** A group receipt: the participant joins the delivered (ack 2) or read (ack ≥ 3) map. */
function withParticipant(info: DeliveryMaps, participant: string, ack: number, at: number): Prisma.InputJsonValue {
  const delivered = { ...(info.delivered ?? {}) };
  const read = { ...(info.read ?? {}) };
  if (ack >= 2) delivered[participant] ??= at;
  if (ack >= 3) read[participant] ??= at;
  return {
    delivered_count: Object.keys(delivered).length,
    read_count: Object.keys(read).length,
    pending: info.pending ?? [],
    delivered,
    read,
  };
}
