import { Errors, type SandboxGroupChangeRequest } from '@mapi/contracts';
import type { NotificationInput } from '../../sandbox/sandbox-groups';
import { contact } from '../../sandbox/sandbox-network';
import type { GroupParticipants } from '../../sandbox/sandbox-types';
import type { SandboxPhones } from '../../sandbox/sandbox-phones';

/**
 * POST /sandbox/groups/change: what another member does to a group the x-phone phone is in (joins by
 * link, leaves, is promoted or demoted by `by`, renames it). The network records the group
 * notification for every member phone and nudges their sessions, which hand it and the new
 * membership on. A change that cannot happen (already a member, not a member, already an admin…) is a 422.
 */
export class SandboxChangeGroup {
  constructor(private readonly sandbox: SandboxPhones) {}

  async execute({ ctx, body }: SandboxGroupChangeRequest) {
    const device = await this.sandbox.paired(ctx);
    const group = await this.sandbox.network.groups.find({ group_id: body.chat_id });
    if (!group?.participants.some((p) => p.id === contact(device.number))) throw Errors.notFound('Group not found: the phone is not in it');
    const who = contact(body.number);
    const member = group.participants.find((p) => p.id === who);
    const refuse = (message: string) => Errors.validation({ 'body.number': { message } });
    let participants: GroupParticipants = group.participants;
    let subject = group.subject;
    let note: NotificationInput;
    switch (body.action) {
      case 'join':
        if (member) throw refuse('already a member of the group');
        participants = [...participants, { id: who, admin: false }];
        note = { chat_id: body.chat_id, type: 'invite', author: who, recipients: [who], body: null };
        break;
      case 'leave':
        if (!member) throw refuse('not a member of the group');
        participants = participants.filter((p) => p.id !== who);
        note = { chat_id: body.chat_id, type: 'leave', author: who, recipients: [who], body: null };
        break;
      case 'promote':
      case 'demote':
        if (!member) throw refuse('not a member of the group');
        if (member.admin === (body.action === 'promote')) throw refuse(body.action === 'promote' ? 'already an admin' : 'not an admin');
        participants = participants.map((p) => (p.id === who ? { ...p, admin: body.action === 'promote' } : p));
        note = { chat_id: body.chat_id, type: body.action, author: body.by ? contact(body.by) : null, recipients: [who], body: null };
        break;
      case 'subject':
        if (!member) throw refuse('not a member of the group');
        subject = body.subject as string;
        note = { chat_id: body.chat_id, type: 'subject', author: who, recipients: [], body: subject };
        break;
    }
    await this.sandbox.network.groups.update(body.chat_id, { participants, settings: { subject } });
    const members = [...new Set([...group.participants, ...participants].map((p) => p.id))];
    for (const phoneId of await this.sandbox.network.groups.record(body.chat_id, members, [note])) this.sandbox.notify(phoneId, 'groups');
    return { chat_id: body.chat_id, subject, participants };
  }
}
