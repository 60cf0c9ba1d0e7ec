import { AcceptInviteRpc, CreateGroupRpc, GroupInviteRpc, GroupSettingsRpc, LeaveGroupRpc, ParticipantsRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { SessionCommands } from '@mapi/events';
import { rpcHandler, type NatsRpcClient } from '@mapi/platform';
import { AcceptInvite } from './usecases/accept-invite/accept-invite.usecase';
import { ChangeParticipants } from './usecases/change-participants/change-participants.usecase';
import { CreateGroup } from './usecases/create-group/create-group.usecase';
import { GroupInvite } from './usecases/group-invite/group-invite.usecase';
import { GroupSettingsUpdate } from './usecases/group-settings/group-settings.usecase';
import { LeaveGroup } from './usecases/leave-group/leave-group.usecase';

export interface GroupsDeps {
  sessions: SessionCommands;
  rpc: NatsRpcClient;
  prisma: PrismaClient;
}

const serve = rpcHandler<GroupsDeps>();

/** What the groups service answers: one line per operation, its contract and its use case. */
export const GROUPS_HANDLERS = [
  serve(ParticipantsRpc.add, (d) => new ChangeParticipants('add', d.sessions, d.rpc)),
  serve(ParticipantsRpc.remove, (d) => new ChangeParticipants('remove', d.sessions, d.rpc)),
  serve(ParticipantsRpc.promote, (d) => new ChangeParticipants('promote', d.sessions, d.rpc)),
  serve(ParticipantsRpc.demote, (d) => new ChangeParticipants('demote', d.sessions, d.rpc)),
  serve(CreateGroupRpc, (d) => new CreateGroup(d.sessions, d.rpc)),
  serve(GroupInviteRpc, (d) => new GroupInvite(d.sessions, d.rpc)),
  serve(GroupSettingsRpc, (d) => new GroupSettingsUpdate(d.sessions, d.rpc)),
  serve(AcceptInviteRpc, (d) => new AcceptInvite(d.sessions, d.rpc)),
  serve(LeaveGroupRpc, (d) => new LeaveGroup(d.sessions, d.rpc)),
];
