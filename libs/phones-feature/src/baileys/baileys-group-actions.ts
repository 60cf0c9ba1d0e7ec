import type { GroupMetadata, GroupSettings } from '../connector/phone-connector';
import type { BaileysSocket } from './baileys-types';
import { toGroupMetadata, toJid, type MapContext } from './baileys-mapping';

/**
 * The group lifecycle on the real network: groupCreate, groupRevokeInvite (a new link; the earlier
 * stops working), groupUpdateSubject / groupUpdateDescription / groupSettingUpdate /
 * groupMemberAddMode, groupAcceptInvite and groupLeave. The group's new state reaches the chats
 * store through `refresh` (a groups upsert), as after a participant action.
 */
export class BaileysGroupActions {
  constructor(
    private readonly socket: () => BaileysSocket,
    private readonly ctx: MapContext,
    private readonly refresh: (groupId: string) => Promise<void>,
  ) {}

  async create(subject: string, participants: string[], settings: GroupSettings = {}): Promise<GroupMetadata> {
    const sock = this.socket();
    const created = await sock.groupCreate(subject, participants.map(toJid));
    await this.apply(created.id, { ...settings, subject: undefined });
    await this.refresh(created.id);
    return toGroupMetadata(created, this.ctx);
  }

  async inviteCode(groupId: string): Promise<string> {
    const code = await this.socket().groupRevokeInvite(groupId);
    if (!code) throw new Error('The network gave no invite code');
    return code;
  }

  async settings(groupId: string, settings: GroupSettings): Promise<void> {
    await this.apply(groupId, settings);
    await this.refresh(groupId);
  }

  async acceptInvite(code: string): Promise<string> {
    const groupId = await this.socket().groupAcceptInvite(code);
    if (!groupId) throw new Error('The invite code is not valid or was revoked');
    await this.refresh(groupId);
    return groupId;
  }

  async leave(groupId: string): Promise<void> {
    await this.socket().groupLeave(groupId);
  }

  private async apply(groupId: string, s: GroupSettings): Promise<void> {
    const sock = this.socket();
    if (s.subject !== undefined) await sock.groupUpdateSubject(groupId, s.subject);
    if (s.description !== undefined) await sock.groupUpdateDescription(groupId, s.description || undefined);
    if (s.announce !== undefined) await sock.groupSettingUpdate(groupId, s.announce ? 'announcement' : 'not_announcement');
    if (s.restrict !== undefined) await sock.groupSettingUpdate(groupId, s.restrict ? 'locked' : 'unlocked');
    if (s.member_add_admins_only !== undefined)
      await sock.groupMemberAddMode(groupId, s.member_add_admins_only ? 'admin_add' : 'all_member_add');
  }
}
