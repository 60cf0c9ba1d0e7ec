import {
  AcceptInvitationRpc,
  AuthenticateSessionRpc,
  CreateApiTokenRpc,
  DeleteMemberRpc,
  InviteMembersRpc,
  ListApiTokensRpc,
  ListAuditRpc,
  ListMembersRpc,
  MeRpc,
  RecordAuditRpc,
  RevokeApiTokenRpc,
  SignInRpc,
  SignOutEverywhereRpc,
  SignOutRpc,
  TouchApiTokenRpc,
  TokenNamesRpc,
  UpdateChatAccessRpc,
  UpdateMemberAccessRpc,
  UpdateMemberRoleRpc,
  type PhoneDirectory,
} from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { rpcHandler } from '@mapi/platform';
import type { InviteMailer } from './mail/invite-mailer';
import { AuditRepository } from './repositories/audit-repository';
import { InvitationRepository } from './repositories/invitation-repository';
import { MemberRepository } from './repositories/member-repository';
import { SessionRepository } from './repositories/session-repository';
import { TokenRepository } from './repositories/token-repository';
import { AcceptInvite } from './usecases/accept-invite/accept-invite.usecase';
import { AuthenticateSession } from './usecases/authenticate-session/authenticate-session.usecase';
import { CreateApiToken } from './usecases/create-api-token/create-api-token.usecase';
import { DeleteMember } from './usecases/delete-member/delete-member.usecase';
import { InviteMembers, type InviteSettings } from './usecases/invite-members/invite-members.usecase';
import { ListApiTokens } from './usecases/list-api-tokens/list-api-tokens.usecase';
import { ListAudit } from './usecases/list-audit/list-audit.usecase';
import { ListMembers } from './usecases/list-members/list-members.usecase';
import { Me } from './usecases/me/me.usecase';
import { RecordAudit } from './usecases/record-audit/record-audit.usecase';
import { RevokeApiToken } from './usecases/revoke-api-token/revoke-api-token.usecase';
import { SignIn } from './usecases/sign-in/sign-in.usecase';
import { SignOutEverywhere } from './usecases/sign-out-everywhere/sign-out-everywhere.usecase';
import { SignOut } from './usecases/sign-out/sign-out.usecase';
import { TouchApiToken } from './usecases/touch-api-token/touch-api-token.usecase';
import { TokenNames } from './usecases/token-names/token-names.usecase';
import { UpdateChatAccess, type SetChatAccess } from './usecases/update-chat-access/update-chat-access.usecase';
import { UpdateMemberAccess } from './usecases/update-member-access/update-member-access.usecase';
import { UpdateMemberRole } from './usecases/update-member-role/update-member-role.usecase';

export interface MembersDeps {
  prisma: PrismaClient;
  /** The organization's phones, from the phones service (phones.v1.directory). */
  directory: PhoneDirectory;
  mailer: InviteMailer;
  invites: InviteSettings;
  sessionTtlSeconds: number;
  /** Per-chat access overrides, kept by the chats service (chats.v1.chat.set-access). */
  setChatAccess: SetChatAccess;
}

const serve = rpcHandler<MembersDeps>();
const members = (d: MembersDeps) => new MemberRepository(d.prisma);
const sessions = (d: MembersDeps) => new SessionRepository(d.prisma);
const audit = (d: MembersDeps) => new AuditRepository(d.prisma);
const tokens = (d: MembersDeps) => new TokenRepository(d.prisma);

/** What the members service answers: one line per operation, its contract and its use case. */
export const MEMBERS_HANDLERS = [
  serve(ListMembersRpc, (d) => new ListMembers(members(d))),
  serve(
    InviteMembersRpc,
    (d) => new InviteMembers(members(d), new InvitationRepository(d.prisma), audit(d), d.directory, d.mailer, d.invites),
  ),
  serve(UpdateMemberAccessRpc, (d) => new UpdateMemberAccess(members(d), audit(d), d.directory)),
  serve(UpdateMemberRoleRpc, (d) => new UpdateMemberRole(members(d), audit(d))),
  serve(UpdateChatAccessRpc, (d) => new UpdateChatAccess(members(d), audit(d), d.setChatAccess)),
  serve(DeleteMemberRpc, (d) => new DeleteMember(members(d), audit(d))),
  serve(ListAuditRpc, (d) => new ListAudit(audit(d))),
  serve(RecordAuditRpc, (d) => new RecordAudit(d.prisma, audit(d))),
  serve(ListApiTokensRpc, (d) => new ListApiTokens(tokens(d))),
  serve(CreateApiTokenRpc, (d) => new CreateApiToken(tokens(d), members(d), audit(d), d.directory)),
  serve(RevokeApiTokenRpc, (d) => new RevokeApiToken(tokens(d), members(d), audit(d))),
  serve(TouchApiTokenRpc, (d) => new TouchApiToken(tokens(d))),
  serve(TokenNamesRpc, (d) => new TokenNames(d.prisma)),
  serve(SignInRpc, (d) => new SignIn(members(d), sessions(d), d.sessionTtlSeconds)),
  serve(
    AcceptInvitationRpc,
    (d) => new AcceptInvite(members(d), new InvitationRepository(d.prisma), sessions(d), audit(d), d.sessionTtlSeconds),
  ),
  serve(SignOutRpc, (d) => new SignOut(sessions(d))),
  serve(SignOutEverywhereRpc, (d) => new SignOutEverywhere(sessions(d))),
  serve(MeRpc, (d) => new Me(members(d), sessions(d))),
  serve(AuthenticateSessionRpc, (d) => new AuthenticateSession(sessions(d))),
];
