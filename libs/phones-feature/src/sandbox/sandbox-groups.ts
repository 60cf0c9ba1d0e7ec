import { randomBytes } from 'node:crypto';
import type { GroupNotification, GroupSettings } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { GroupParticipants, SandboxGroupRow } from './sandbox-types';

export type NotificationInput = Omit<GroupNotification, 'id' | 'timestamp'>;

const digitsOf = (contactId: string) => contactId.replace(/@c\.us$/, '');
export const newInviteCode = () => randomBytes(16).toString('base64url').slice(0, 22);

/**
 * The sandbox network's groups beyond their members: settings, invite codes, and the group
 * notifications each member phone is to receive (sandbox_notifications, handed on by its connector).
 */
export class SandboxGroups {
  constructor(private readonly prisma: PrismaClient) {}

  async find(where: { group_id: string } | { invite_code: string }): Promise<SandboxGroupRow | null> {
    const row = await this.prisma.sandboxGroup.findUnique({ where: where as Prisma.SandboxGroupWhereUniqueInput });
    return row ? { ...row, participants: row.participants as GroupParticipants } : null;
  }

  async create(groupId: string, subject: string, participants: GroupParticipants, settings: GroupSettings = {}): Promise<void> {
    await this.prisma.sandboxGroup.create({
      data: { group_id: groupId, subject, participants: participants as unknown as Prisma.InputJsonValue, ...columns(settings) },
    });
  }

  async update(groupId: string, data: { participants?: GroupParticipants; settings?: GroupSettings; invite_code?: string }): Promise<void> {
    await this.prisma.sandboxGroup.update({
      where: { group_id: groupId },
      data: {
        ...(data.participants ? { participants: data.participants as unknown as Prisma.InputJsonValue } : {}),
        ...(data.settings ? columns(data.settings) : {}),
        ...(data.invite_code ? { invite_code: data.invite_code } : {}),
      },
    });
  }

  /**
   * Records notifications of a group for every sandbox phone among `members` (contact ids: those who
   * were or are in the group). One network id per notification, shared by every phone's copy.
   * Answers the phones that are to receive them.
   */
  async record(chatId: string, members: string[], notifications: NotificationInput[]): Promise<string[]> {
    if (!notifications.length) return [];
    const devices = await this.prisma.sandboxDevice.findMany({
      where: { number: { in: [...new Set(members.map(digitsOf))] } },
      select: { phone_id: true },
    });
    const at = Date.now();
    const rows = notifications.flatMap((n, i) => {
      const network_id = `N${randomBytes(10).toString('hex').toUpperCase()}`;
      const timestamp = new Date(at + i);
      return devices.map((d) => ({
        phone_id: d.phone_id,
        network_id,
        chat_id: chatId,
        type: n.type,
        author: n.author,
        recipients: n.recipients,
        body: n.body,
        timestamp,
      }));
    });
    if (rows.length) await this.prisma.sandboxNotification.createMany({ data: rows, skipDuplicates: true });
    return devices.map((d) => d.phone_id);
  }

  /** What the phone has still to receive, oldest first. */
  async pending(phoneId: string, limit = 500): Promise<(GroupNotification & { row: bigint })[]> {
    const rows = await this.prisma.sandboxNotification.findMany({
      where: { phone_id: phoneId, delivered: false },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map((r) => ({
      row: r.id,
      chat_id: r.chat_id,
      id: r.network_id,
      type: r.type,
      author: r.author,
      recipients: r.recipients as string[],
      body: r.body,
      timestamp: r.timestamp.toISOString(),
    }));
  }

  async markDelivered(rows: bigint[]): Promise<void> {
    if (rows.length) await this.prisma.sandboxNotification.updateMany({ where: { id: { in: rows } }, data: { delivered: true } });
  }
}

function columns(s: GroupSettings): {
  subject?: string;
  description?: string;
  announce?: boolean;
  restrict?: boolean;
  member_add_admins_only?: boolean;
} {
  return {
    ...(s.subject !== undefined ? { subject: s.subject } : {}),
    ...(s.description !== undefined ? { description: s.description } : {}),
    ...(s.announce !== undefined ? { announce: s.announce } : {}),
    ...(s.restrict !== undefined ? { restrict: s.restrict } : {}),
    ...(s.member_add_admins_only !== undefined ? { member_add_admins_only: s.member_add_admins_only } : {}),
  };
}
