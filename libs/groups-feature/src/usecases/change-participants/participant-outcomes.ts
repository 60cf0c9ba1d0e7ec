import type { GroupParticipantAction, ParticipantOutcomeMap, ParticipantResult } from '@mapi/contracts';

const DONE: Record<GroupParticipantAction, string> = {
  add: 'Added to the group',
  remove: 'Removed from the group',
  promote: 'Promoted to admin',
  demote: 'Demoted to member',
};
const ALREADY: Record<GroupParticipantAction, string> = {
  add: 'Already a member of this group',
  remove: 'Not a member of this group',
  promote: 'Already an admin of this group',
  demote: 'Not an admin of this group',
};

/** The network's per-participant statuses as spec 2.4's outcome map, keyed `<number>@c.us`. */
export function toOutcomeMap(action: GroupParticipantAction, results: ParticipantResult[]): ParticipantOutcomeMap {
  const map: ParticipantOutcomeMap = {};
  for (const r of results) {
    const code = Number(r.status);
    const message =
      r.status === '200'
        ? DONE[action]
        : r.status === '403'
          ? 'The phone is not an admin of this group'
          : r.status === '404'
            ? 'Not a member of this group'
            : ALREADY[action];
    map[r.id] = { is_success: r.status === '200', message, code };
  }
  return map;
}
