import { z } from 'zod';
import { GroupChatIdSchema, PHONE_DIGITS } from '../../common/ids';
import { RequestContextSchema } from '../../common/request-context';
import { defineRoute, type RouteContract } from '../../http/define-route';
import { defineRpc } from '../../rpc/define-rpc';

/** Add, remove, promote and demote group participants (spec 4.4 and 2.4; the others per ../shared/reference/wider-api.md). */
export const PARTICIPANT_ACTIONS = ['add', 'remove', 'promote', 'demote'] as const;
export type GroupParticipantAction = (typeof PARTICIPANT_ACTIONS)[number];

export const ParticipantsParams = z.object({ chat_id: GroupChatIdSchema });
export const ParticipantsBody = z.object({
  participants: z
    .array(z.string().min(1, 'must not be empty').regex(PHONE_DIGITS, 'must be a phone number: country code + number, digits only'))
    .min(1, 'participants needs at least one phone number')
    .max(1024),
});

/** Spec 2.4: keyed by participant contact id (`<number>@c.us`). */
export const ParticipantOutcomeMap = z.record(
  z.string(),
  z.object({ is_success: z.boolean(), message: z.string(), code: z.number().optional() }),
);
export type ParticipantOutcomeMap = z.infer<typeof ParticipantOutcomeMap>;

export const ParticipantsRequest = z.object({ ctx: RequestContextSchema, params: ParticipantsParams, body: ParticipantsBody });
export type ParticipantsRequest = z.infer<typeof ParticipantsRequest>;

export const ParticipantsRpc = Object.fromEntries(
  PARTICIPANT_ACTIONS.map((action) => [
    action,
    defineRpc({
      subject: `groups.v1.participants-${action}`,
      service: 'groups',
      request: ParticipantsRequest,
      response: ParticipantOutcomeMap,
    }),
  ]),
) as Record<GroupParticipantAction, ReturnType<typeof defineRpc<typeof ParticipantsRequest, typeof ParticipantOutcomeMap>>>;

const SUMMARY: Record<GroupParticipantAction, string> = {
  add: 'Add participants to a group',
  remove: 'Remove participants from a group',
  promote: 'Make participants group admins',
  demote: 'Demote group admins back to regular members (spec 4.4)',
};

export const PARTICIPANT_ROUTES: readonly RouteContract[] = PARTICIPANT_ACTIONS.map((action) =>
  defineRoute({
    operationId: `${action}GroupParticipants`,
    method: 'POST',
    path: `/chats/{chat_id}/${action}`,
    tag: 'group',
    summary: SUMMARY[action],
    description:
      'chat_id must end with @g.us. Without x-phone, the first-created connected phone within the token scope that is an admin of the group acts. ' +
      'The answer maps each participant (<number>@c.us) to {is_success, message}; a participant that cannot be changed is is_success false, never a failed request.',
    params: ParticipantsParams,
    body: ParticipantsBody,
    phone: 'optional',
    rpc: ParticipantsRpc[action],
    successStatus: 200,
    response: ParticipantOutcomeMap,
  }),
);
