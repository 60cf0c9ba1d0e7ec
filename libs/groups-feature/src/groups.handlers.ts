import { ParticipantsRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { SessionCommands } from '@mapi/events';
import { rpcHandler, type NatsRpcClient } from '@mapi/platform';
import { ChangeParticipants } from './usecases/change-participants/change-participants.usecase';

export interface GroupsDeps {
  sessions: SessionCommands;
  rpc: NatsRpcClient;
  prisma: PrismaClient;
}

const serve = rpcHandler<GroupsDeps>();

/** What the groups service answers: one line per operation, its contract and its use case. */
export const GROUPS_HANDLERS = [
  serve(ParticipantsRpc.add, (d) => new ChangeParticipants('add', d.sessions, d.rpc, d.prisma)),
  serve(ParticipantsRpc.remove, (d) => new ChangeParticipants('remove', d.sessions, d.rpc, d.prisma)),
  serve(ParticipantsRpc.promote, (d) => new ChangeParticipants('promote', d.sessions, d.rpc, d.prisma)),
  serve(ParticipantsRpc.demote, (d) => new ChangeParticipants('demote', d.sessions, d.rpc, d.prisma)),
];
