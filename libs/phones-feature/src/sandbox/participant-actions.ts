import type { ParticipantAction, ParticipantResult } from '../connector/phone-connector';
import type { GroupParticipants } from './sandbox-types';

/**
 * The network's rules for add/remove/promote/demote, as Baileys reports them per participant:
 * 403 when the acting phone is not an admin, 404 not a member, 409 already a member/admin or not an
 * admin to demote, 200 done.
 */
export function applyParticipantAction(
  current: GroupParticipants,
  actor: string,
  participants: string[],
  action: ParticipantAction,
): { next: GroupParticipants; results: ParticipantResult[] } {
  const next = current.map((p) => ({ ...p }));
  const actorIsAdmin = next.some((p) => p.id === actor && p.admin);
  const results: ParticipantResult[] = participants.map((id) => {
    if (!actorIsAdmin) return { id, status: '403' };
    const member = next.find((p) => p.id === id);
    switch (action) {
      case 'add':
        if (member) return { id, status: '409' };
        next.push({ id, admin: false });
        return { id, status: '200' };
      case 'remove':
        if (!member) return { id, status: '404' };
        next.splice(next.indexOf(member), 1);
        return { id, status: '200' };
      case 'promote':
        if (!member) return { id, status: '404' };
        if (member.admin) return { id, status: '409' };
        member.admin = true;
        return { id, status: '200' };
      case 'demote':
        if (!member) return { id, status: '404' };
        if (!member.admin) return { id, status: '409' };
        member.admin = false;
        return { id, status: '200' };
    }
  });
  return { next, results };
}
