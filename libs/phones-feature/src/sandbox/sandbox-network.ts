import { randomBytes } from 'node:crypto';
import type { IngestMessage } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { GroupMetadata } from '../connector/phone-connector';

export type DeviceRow = Prisma.SandboxDeviceModel;
export type SandboxMessageRow = Prisma.SandboxMessageModel;
export type GroupParticipants = { id: string; admin: boolean }[];

export const newUniqueId = () => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
export const contact = (digits: string) => `${digits}@c.us`;

/**
 * The sandbox network's state in Postgres: devices (phones as the network sees them), groups, and
 * each phone's message history. Survives restarts; any phones replica can read and change it.
 */
export class SandboxNetwork {
  constructor(private readonly prisma: PrismaClient) {}

  device(phoneId: string): Promise<DeviceRow | null> {
    return this.prisma.sandboxDevice.findUnique({ where: { phone_id: phoneId } });
  }

  async ensureDevice(phoneId: string, orgId: string): Promise<DeviceRow> {
    return this.prisma.sandboxDevice.upsert({ where: { phone_id: phoneId }, create: { phone_id: phoneId, org_id: orgId, number: '' }, update: {} });
  }

  setDevice(phoneId: string, data: Partial<Pick<DeviceRow, 'state' | 'qr' | 'number'>>): Promise<DeviceRow> {
    return this.prisma.sandboxDevice.update({ where: { phone_id: phoneId }, data: { ...data, updated_at: new Date() } });
  }

  async group(groupId: string): Promise<{ group_id: string; subject: string; participants: GroupParticipants } | null> {
    const row = await this.prisma.sandboxGroup.findUnique({ where: { group_id: groupId } });
    return row ? { ...row, participants: row.participants as GroupParticipants } : null;
  }

  async saveGroup(groupId: string, subject: string, participants: GroupParticipants): Promise<void> {
    const json = participants as unknown as Prisma.InputJsonValue;
    await this.prisma.sandboxGroup.upsert({ where: { group_id: groupId }, create: { group_id: groupId, subject, participants: json }, update: { subject, participants: json } });
  }

  async groupsOf(contactId: string): Promise<GroupMetadata[]> {
    const rows = await this.prisma.$queryRaw<{ group_id: string; subject: string; participants: GroupParticipants }[]>`
      SELECT group_id, subject, participants FROM sandbox_groups WHERE participants @> ${JSON.stringify([{ id: contactId }])}::jsonb ORDER BY group_id`;
    return rows.map((r) => ({ chat_id: r.group_id, subject: r.subject, participants: r.participants }));
  }

  async addMessage(phoneId: string, m: Omit<IngestMessage, 'ack'> & { ack?: number }): Promise<SandboxMessageRow> {
    return this.prisma.sandboxMessage.create({
      data: {
        phone_id: phoneId,
        chat_id: m.chat_id,
        unique_id: m.unique_id,
        from_me: m.from_me,
        sender: m.sender_phone,
        body: m.body,
        message_type: m.message_type,
        media: (m.media ?? undefined) as Prisma.InputJsonValue | undefined,
        timestamp: new Date(m.timestamp),
        ack: m.ack ?? 0,
        sent_message_id: m.sent_message_id ?? null,
      },
    });
  }

  sentMessage(phoneId: string, sentMessageId: string): Promise<SandboxMessageRow | null> {
    return this.prisma.sandboxMessage.findFirst({ where: { phone_id: phoneId, sent_message_id: sentMessageId } });
  }

  message(phoneId: string, uniqueId: string): Promise<SandboxMessageRow | null> {
    return this.prisma.sandboxMessage.findUnique({ where: { phone_id_unique_id: { phone_id: phoneId, unique_id: uniqueId } } });
  }

  async setAck(id: bigint, ack: number): Promise<void> {
    await this.prisma.sandboxMessage.update({ where: { id }, data: { ack } });
  }

  /** Messages not yet handed to the phone, and acks not yet reported, oldest first. */
  pending(phoneId: string, limit = 500): Promise<SandboxMessageRow[]> {
    return this.prisma.$queryRaw<SandboxMessageRow[]>`
      SELECT * FROM sandbox_messages WHERE phone_id = ${phoneId} AND (delivered = false OR delivered_ack <> ack)
      ORDER BY id LIMIT ${limit}`;
  }

  /** Marks what was handed on, in one statement; a row whose ack moved meanwhile keeps its new ack pending. */
  async markDelivered(rows: SandboxMessageRow[]): Promise<void> {
    if (!rows.length) return;
    // Without waiting for the disk: a mark lost to a Postgres crash only hands the rows on again, and
    // ingestion is idempotent. set_config(…, true) holds for this statement's own transaction, so the
    // statement commits asynchronously in one round trip. (The fsync was a large share of the way in.)
    await this.prisma.$executeRaw`
      WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true))
      UPDATE sandbox_messages AS m SET delivered = true, delivered_ack = u.ack
      FROM async_commit, unnest(${rows.map((r) => r.id)}::bigint[], ${rows.map((r) => r.ack)}::smallint[]) AS u(id, ack)
      WHERE m.id = u.id AND m.ack = u.ack`;
  }

  history(phoneId: string, chatId: string, count: number): Promise<SandboxMessageRow[]> {
    return this.prisma.sandboxMessage.findMany({ where: { phone_id: phoneId, chat_id: chatId }, orderBy: { id: 'desc' }, take: count });
  }

  async chatIds(phoneId: string): Promise<string[]> {
    const rows = await this.prisma.sandboxMessage.findMany({ where: { phone_id: phoneId }, distinct: ['chat_id'], select: { chat_id: true } });
    return rows.map((r) => r.chat_id);
  }
}

export function toIngestMessage(row: SandboxMessageRow): IngestMessage {
  return {
    chat_id: row.chat_id,
    unique_id: row.unique_id,
    from_me: row.from_me,
    sender_phone: row.sender,
    body: row.body,
    message_type: row.message_type,
    timestamp: row.timestamp.toISOString(),
    ack: row.ack,
    media: (row.media as IngestMessage['media']) ?? null,
    sent_message_id: row.sent_message_id,
  };
}
