import { randomBytes } from 'node:crypto';
import type { IngestMessage } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { GroupMetadata } from '../connector/phone-connector';
import { SandboxGroups } from './sandbox-groups';
import { SandboxChanges } from './sandbox-changes';
import type { GroupParticipants } from './sandbox-types';

export type DeviceRow = Prisma.SandboxDeviceModel;
/** A message of the network; the delivered/delivered_ack columns are kept one release for older pods and never read here. */
export type SandboxMessageRow = Omit<Prisma.SandboxMessageModel, 'delivered' | 'delivered_ack'>;
const LEGACY = { delivered: true, delivered_ack: true } as const;
/**
 * A message with something still to hand on: `new_message` when the message itself was not handed
 * on yet (it travels with its ack), else only its ack `pending_ack` is to report.
 */
export type PendingRow = SandboxMessageRow & { new_message: boolean; pending_ack: number };

export const newUniqueId = () => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
export const contact = (digits: string) => `${digits}@c.us`;

/**
 * The sandbox network's state in Postgres: devices (phones as the network sees them), groups, and
 * each phone's message history. Survives restarts; any phones replica can read and change it.
 */
export class SandboxNetwork {
  /** Edits, deletions and reactions still to report to the phones (message actions). */
  readonly changes: SandboxChanges;

  /** Group settings, invite codes and group notifications. */
  readonly groups: SandboxGroups;

  constructor(private readonly prisma: PrismaClient) {
    this.changes = new SandboxChanges(prisma);
    this.groups = new SandboxGroups(prisma);
  }

  // device() and message() are read by every control request, a hot path under load (docs/benchmarks.md,
  // "Reactions and edits to a webhook"): plain statements, without the ORM's query compilation per call.
  async device(phoneId: string): Promise<DeviceRow | null> {
    const rows = await this.prisma.$queryRaw<DeviceRow[]>`
      SELECT phone_id, org_id::text AS org_id, number, state, qr, updated_at FROM sandbox_devices WHERE phone_id = ${phoneId}`;
    return rows[0] ?? null;
  }

  /**
   * The device and one message of its history (null when it has no such message), in one statement:
   * the control routes that change a message (edit, delete, react) read both on every request.
   */
  async deviceWithMessage(phoneId: string, uniqueId: string): Promise<{ device: DeviceRow; message: SandboxMessageRow | null } | null> {
    type MessageJson = Omit<SandboxMessageRow, 'id' | 'timestamp'> & { id: string; timestamp: string };
    const rows = await this.prisma.$queryRaw<(DeviceRow & { m: MessageJson | null })[]>`
      SELECT d.phone_id, d.org_id::text AS org_id, d.number, d.state, d.qr, d.updated_at,
             (SELECT to_jsonb(m) FROM (SELECT id::text AS id, phone_id, chat_id, unique_id, from_me, sender, sender_name, body, message_type, media, timestamp, ack,
                                    sent_message_id::text AS sent_message_id, is_forwarded, is_deleted, quoted_message_id
                             FROM sandbox_messages WHERE phone_id = d.phone_id AND unique_id = ${uniqueId}) m) AS m
      FROM sandbox_devices d WHERE d.phone_id = ${phoneId}`;
    if (!rows[0]) return null;
    const { m, ...device } = rows[0];
    return { device, message: m ? { ...m, id: BigInt(m.id), timestamp: new Date(m.timestamp) } : null };
  }

  async ensureDevice(phoneId: string, orgId: string): Promise<DeviceRow> {
    return this.prisma.sandboxDevice.upsert({
      where: { phone_id: phoneId },
      create: { phone_id: phoneId, org_id: orgId, number: '' },
      update: {},
    });
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
    await this.prisma.sandboxGroup.upsert({
      where: { group_id: groupId },
      create: { group_id: groupId, subject, participants: json },
      update: { subject, participants: json },
    });
  }

  async groupsOf(contactId: string): Promise<GroupMetadata[]> {
    type Row = {
      group_id: string;
      subject: string;
      participants: GroupParticipants;
      description: string | null;
      announce: boolean;
      restrict: boolean;
      member_add_admins_only: boolean;
    };
    const rows = await this.prisma.$queryRaw<Row[]>`
      SELECT group_id, subject, participants, description, announce, restrict, member_add_admins_only
      FROM sandbox_groups WHERE participants @> ${JSON.stringify([{ id: contactId }])}::jsonb ORDER BY group_id`;
    return rows.map((r) => ({
      chat_id: r.group_id,
      subject: r.subject,
      participants: r.participants,
      description: r.description,
      announce: r.announce,
      restrict: r.restrict,
      member_add_admins_only: r.member_add_admins_only,
    }));
  }

  /** Stores the message and its pending row (the message is to hand on) in one statement. */
  async addMessage(phoneId: string, m: Omit<IngestMessage, 'ack'> & { ack?: number }): Promise<SandboxMessageRow> {
    const media = m.media ? JSON.stringify(m.media) : null;
    const rows = await this.prisma.$queryRaw<SandboxMessageRow[]>`
      WITH m AS (
        INSERT INTO sandbox_messages (phone_id, chat_id, unique_id, from_me, sender, sender_name, body, message_type, media, timestamp, ack, sent_message_id, is_forwarded,
                                      quoted_message_id)
        VALUES (${phoneId}, ${m.chat_id}, ${m.unique_id}, ${m.from_me}, ${m.sender_phone}, ${m.sender_name ?? null}, ${m.body}, ${m.message_type}, ${media}::jsonb,
                ${new Date(m.timestamp)}::timestamptz, ${m.ack ?? 0}::smallint, ${m.sent_message_id ?? null}::uuid, ${m.is_forwarded ?? false},
                ${m.quoted_message_id ?? null})
        RETURNING id, phone_id, chat_id, unique_id, from_me, sender, sender_name, body, message_type, media, timestamp, ack, sent_message_id, is_forwarded, is_deleted,
                  quoted_message_id),
      p AS (INSERT INTO sandbox_pending (message_id, phone_id, new_message, ack) SELECT id, phone_id, true, ack FROM m)
      SELECT * FROM m`;
    return rows[0];
  }

  sentMessage(phoneId: string, sentMessageId: string): Promise<SandboxMessageRow | null> {
    return this.prisma.sandboxMessage.findFirst({ where: { phone_id: phoneId, sent_message_id: sentMessageId }, omit: LEGACY });
  }

  async message(phoneId: string, uniqueId: string): Promise<SandboxMessageRow | null> {
    const rows = await this.prisma.$queryRaw<SandboxMessageRow[]>`
      SELECT id, phone_id, chat_id, unique_id, from_me, sender, sender_name, body, message_type, media, timestamp, ack,
             sent_message_id::text AS sent_message_id, is_forwarded, is_deleted, quoted_message_id
      FROM sandbox_messages WHERE phone_id = ${phoneId} AND unique_id = ${uniqueId}`;
    return rows[0] ?? null;
  }

  /**
   * Raises the message's ack and makes it pending, in one statement. A message not handed on yet
   * keeps new_message (its new ack travels with it); one handed on gets an ack-only row.
   */
  async setAck(id: bigint, ack: number): Promise<void> {
    await this.prisma.$executeRaw`
      WITH m AS (UPDATE sandbox_messages SET ack = ${ack}::smallint WHERE id = ${id} RETURNING id, phone_id, ack)
      INSERT INTO sandbox_pending (message_id, phone_id, new_message, ack) SELECT id, phone_id, false, ack FROM m
      ON CONFLICT (message_id) DO UPDATE SET ack = EXCLUDED.ack`;
  }

  /**
   * Messages not yet handed to the phone, and acks not yet reported, oldest first. Reads only
   * sandbox_pending (what is pending, not the phone's history), then each message by its id.
   *
   * Written so that no planner statistics (stale on tables that grow fast, or never taken) can turn
   * it into a walk over other rows; each form below shuts out a plan that does so:
   * - the phone's range of the (phone_id, message_id) index, as a row comparison ordered by both
   *   columns: only that index yields this order. With `phone_id = $1 ORDER BY message_id` Postgres
   *   also walks the primary key from the oldest pending row of any phone, filtering on phone_id
   *   (thousands of other rows read for one page: a phone held offline keeps its backlog pending);
   * - LIMIT before the join, and each message by primary key in a LATERAL … LIMIT 1 (a subquery the
   *   planner cannot flatten): at most `limit` lookups. Joined plainly, with statistics taken while
   *   the tables were small, it hashes the whole of sandbox_messages.
   */
  pending(phoneId: string, limit = 500): Promise<PendingRow[]> {
    return this.prisma.$queryRaw<PendingRow[]>`
      SELECT m.id, m.phone_id, m.chat_id, m.unique_id, m.from_me, m.sender, m.sender_name, m.body, m.message_type, m.media, m.timestamp, m.ack,
             m.sent_message_id, m.is_forwarded, m.is_deleted, m.quoted_message_id, p.new_message, p.ack AS pending_ack
      FROM (SELECT * FROM sandbox_pending
            WHERE (phone_id, message_id) >= (${phoneId}::text, 0) AND (phone_id, message_id) <= (${phoneId}::text, 9223372036854775807)
            ORDER BY phone_id, message_id LIMIT ${limit}) p
      CROSS JOIN LATERAL (SELECT * FROM sandbox_messages WHERE id = p.message_id LIMIT 1) m
      ORDER BY p.message_id`;
  }

  /**
   * Marks what was handed on, in one statement: a pending row whose ack is still the one handed on
   * is deleted; one whose ack moved meanwhile (setAck between pending() and now) stays, as ack-only,
   * so the new ack is reported next time and the message is not handed on twice.
   */
  async markDelivered(rows: PendingRow[]): Promise<void> {
    if (!rows.length) return;
    const ids = rows.map((r) => r.id);
    // Without waiting for the disk: a mark lost to a Postgres crash only hands the rows on again, and
    // ingestion is idempotent. set_config(…, true) holds for this statement's own transaction, so the
    // statement commits asynchronously in one round trip. (The fsync would be a large share of the way in.)
    // The DELETE and the UPDATE touch disjoint rows (p.ack = u.ack, p.ack <> u.ack) of one snapshot.
    // A setAck committing while this statement waits on its row leaves that row untouched (still
    // new_message): the message is handed on once more, with its new ack; nothing is lost.
    // `message_id = ANY(ids)` lets Postgres find the rows by primary key: joined with `u` alone it
    // hashes the whole table twice, a cost that grows with the backlog.
    await this.prisma.$executeRaw`
      WITH async_commit AS (SELECT set_config('synchronous_commit', 'off', true)),
      u AS (SELECT x.id, x.ack FROM async_commit, unnest(${ids}::bigint[], ${rows.map((r) => r.pending_ack)}::smallint[]) AS x(id, ack)),
      d AS (DELETE FROM sandbox_pending p USING u WHERE p.message_id = ANY(${ids}::bigint[]) AND p.message_id = u.id AND p.ack = u.ack)
      UPDATE sandbox_pending p SET new_message = false
      FROM u WHERE p.message_id = ANY(${ids}::bigint[]) AND p.message_id = u.id AND p.ack <> u.ack AND p.new_message`;
  }

  history(phoneId: string, chatId: string, count: number): Promise<SandboxMessageRow[]> {
    return this.prisma.sandboxMessage.findMany({
      where: { phone_id: phoneId, chat_id: chatId },
      orderBy: { id: 'desc' },
      take: count,
      omit: LEGACY,
    });
  }

  async chatIds(phoneId: string): Promise<string[]> {
    const rows = await this.prisma.sandboxMessage.findMany({
      where: { phone_id: phoneId },
      distinct: ['chat_id'],
      select: { chat_id: true },
    });
    return rows.map((r) => r.chat_id);
  }
}

export function toIngestMessage(row: SandboxMessageRow): IngestMessage {
  return {
    chat_id: row.chat_id,
    unique_id: row.unique_id,
    from_me: row.from_me,
    sender_phone: row.sender,
    ...(row.sender_name ? { sender_name: row.sender_name } : {}),
    body: row.body,
    message_type: row.message_type,
    timestamp: row.timestamp.toISOString(),
    ack: row.ack,
    media: (row.media as IngestMessage['media']) ?? null,
    sent_message_id: row.sent_message_id,
    ...(row.is_forwarded ? { is_forwarded: true } : {}),
    ...(row.quoted_message_id ? { quoted_message_id: row.quoted_message_id } : {}),
  };
}
