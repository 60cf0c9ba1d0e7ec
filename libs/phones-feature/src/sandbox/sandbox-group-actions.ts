import { randomInt } from 'node:crypto';
import type { GroupMetadata, GroupSettings } from '../connector/phone-connector';
import { newInviteCode, type NotificationInput, type SandboxGroups } from './sandbox-groups';
import type { GroupParticipants, SandboxGroupRow } from './sandbox-types';

export const newSandboxGroupId = () => `1203630${String(randomInt(1e10, 1e11))}${randomInt(0, 10)}@g.us`;

/** What the group actions need of the phone's session: who it is, and how to hand on and nudge. */
export interface GroupActionSession {
  me(): Promise<string>;
  /** Hands the group (as this phone now sees it) to the chats store. */
  upsert(group: GroupMetadata): Promise<void>;
  /** Tells the other phones' sessions that they have notifications to read. */
  nudge(phoneIds: string[]): Promise<void>;
}

type GroupState = Pick<SandboxGroupRow, 'group_id' | 'subject' | 'participants'> &
  Partial<Pick<SandboxGroupRow, 'description' | 'announce' | 'restrict' | 'member_add_admins_only'>>;
const toMetadata = (g: GroupState): GroupMetadata => ({
  chat_id: g.group_id,
  subject: g.subject,
  participants: g.participants,
  ...(g.announce !== undefined
    ? { description: g.description ?? null, announce: g.announce, restrict: g.restrict, member_add_admins_only: g.member_add_admins_only }
    : {}),
});

/**
 * The sandbox network's rules for the group lifecycle: create (the phone the sole admin), invite codes
 * (admins only; a new one revokes the earlier), settings (admins only), joining by code, leaving.
 * Each change records the group notifications every member phone receives (SandboxGroups.record).
 * A refusal throws with the network's reason (the session answers it as an error).
 */
export class SandboxGroupActions {
  constructor(
    private readonly groups: SandboxGroups,
    private readonly session: GroupActionSession,
  ) {}

  async create(subject: string, participants: string[], settings: GroupSettings = {}): Promise<GroupMetadata> {
    const me = await this.session.me();
    const members: GroupParticipants = [
      { id: me, admin: true },
      ...[...new Set(participants)].filter((p) => p !== me).map((id) => ({ id, admin: false })),
    ];
    const group: GroupState = {
      group_id: newSandboxGroupId(),
      subject,
      participants: members,
      description: settings.description ?? null,
      announce: settings.announce ?? false,
      restrict: settings.restrict ?? false,
      member_add_admins_only: settings.member_add_admins_only ?? false,
    };
    await this.groups.create(group.group_id, subject, members, settings);
    const added = members.filter((m) => m.id !== me).map((m) => m.id);
    await this.changed(group, members, [
      { chat_id: group.group_id, type: 'create', author: me, recipients: [], body: subject },
      ...(added.length ? [{ chat_id: group.group_id, type: 'add', author: me, recipients: added, body: null }] : []),
    ]);
    return toMetadata(group);
  }

  async inviteCode(groupId: string): Promise<string> {
    const { group } = await this.asAdmin(groupId);
    const code = newInviteCode();
    await this.groups.update(group.group_id, { invite_code: code });
    return code;
  }

  async settings(groupId: string, settings: GroupSettings): Promise<void> {
    const { group, me } = await this.asAdmin(groupId);
    await this.groups.update(groupId, { settings });
    const n = (type: string, body: string | null): NotificationInput => ({ chat_id: groupId, type, author: me, recipients: [], body });
    const notes: NotificationInput[] = [];
    if (settings.subject !== undefined && settings.subject !== group.subject) notes.push(n('subject', settings.subject));
    if (settings.description !== undefined && settings.description !== (group.description ?? ''))
      notes.push(n('description', settings.description));
    if (settings.announce !== undefined && settings.announce !== group.announce)
      notes.push(n('announce', settings.announce ? 'on' : 'off'));
    if (settings.restrict !== undefined && settings.restrict !== group.restrict)
      notes.push(n('restrict', settings.restrict ? 'on' : 'off'));
    const after = {
      ...group,
      ...Object.fromEntries(Object.entries({ ...settings, subject: undefined }).filter(([, v]) => v !== undefined)),
    };
    await this.changed({ ...after, subject: settings.subject ?? group.subject }, group.participants, notes);
  }

  async acceptInvite(code: string): Promise<string> {
    const me = await this.session.me();
    const group = await this.groups.find({ invite_code: code });
    if (!group) throw new Error('The invite code is not valid or was revoked');
    if (group.participants.some((p) => p.id === me)) return group.group_id; // already in: nothing changes
    const participants = [...group.participants, { id: me, admin: false }];
    await this.groups.update(group.group_id, { participants });
    await this.changed({ ...group, participants }, participants, [
      { chat_id: group.group_id, type: 'invite', author: me, recipients: [me], body: null },
    ]);
    return group.group_id;
  }

  async leave(groupId: string): Promise<void> {
    const me = await this.session.me();
    const group = await this.groups.find({ group_id: groupId });
    if (!group?.participants.some((p) => p.id === me)) throw new Error('The phone is not a member of this group');
    const participants = group.participants.filter((p) => p.id !== me);
    await this.groups.update(groupId, { participants });
    await this.changed({ ...group, participants }, group.participants, [
      { chat_id: groupId, type: 'leave', author: me, recipients: [me], body: null },
    ]);
  }

  private async asAdmin(groupId: string): Promise<{ group: SandboxGroupRow; me: string }> {
    const me = await this.session.me();
    const group = await this.groups.find({ group_id: groupId });
    const member = group?.participants.find((p) => p.id === me);
    if (!group || !member) throw new Error('The phone is not a member of this group');
    if (!member.admin) throw new Error('The phone is not an admin of this group');
    return { group, me };
  }

  /** The group as this phone now sees it goes to the chats store; the notifications to every member phone (`members`: before and after). */
  private async changed(group: GroupState, members: GroupParticipants, notes: NotificationInput[]): Promise<void> {
    await this.session.upsert(toMetadata(group));
    const ids = new Set([...members, ...group.participants].map((p) => p.id));
    const phones = await this.groups.record(group.group_id, [...ids], notes);
    await this.session.nudge(phones);
  }
}
