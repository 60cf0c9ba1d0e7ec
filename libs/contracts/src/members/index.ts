import type { RouteContract } from '../http/define-route';
import { AcceptInvitationRoute } from './accept-invite/accept-invite.contract';
import { CreateApiTokenRoute } from './create-api-token/create-api-token.contract';
import { DeleteMemberRoute } from './delete-member/delete-member.contract';
import { InviteMembersRoute } from './invite-members/invite-members.contract';
import { ListApiTokensRoute } from './list-api-tokens/list-api-tokens.contract';
import { ListAuditRoute } from './list-audit/list-audit.contract';
import { ListMembersRoute } from './list-members/list-members.contract';
import { MeRoute } from './me/me.contract';
import { RevokeApiTokenRoute } from './revoke-api-token/revoke-api-token.contract';
import { SignInRoute } from './sign-in/sign-in.contract';
import { SignOutEverywhereRoute } from './sign-out-everywhere/sign-out-everywhere.contract';
import { SignOutRoute } from './sign-out/sign-out.contract';
import { UpdateChatAccessRoute } from './update-chat-access/update-chat-access.contract';
import { UpdateMemberAccessRoute } from './update-member-access/update-member-access.contract';
import { UpdateMemberRoleRoute } from './update-member-role/update-member-role.contract';

export * from './member/member.schema';
export * from './list-members/list-members.contract';
export * from './invite-members/invite-members.contract';
export * from './update-member-access/update-member-access.contract';
export * from './update-member-role/update-member-role.contract';
export * from './delete-member/delete-member.contract';
export * from './list-audit/list-audit.contract';
export * from './record-audit/record-audit.contract';
export * from './sign-in/sign-in.contract';
export * from './accept-invite/accept-invite.contract';
export * from './sign-out/sign-out.contract';
export * from './sign-out-everywhere/sign-out-everywhere.contract';
export * from './me/me.contract';
export * from './update-chat-access/update-chat-access.contract';
export * from './authenticate-session/authenticate-session.contract';
export * from './api-token/api-token.schema';
export * from './list-api-tokens/list-api-tokens.contract';
export * from './create-api-token/create-api-token.contract';
export * from './revoke-api-token/revoke-api-token.contract';
export * from './touch-api-token/touch-api-token.contract';
export * from './token-names/token-names.contract';

/** The members service's public routes: members (the public client's), API tokens and the console's sign-in. */
export const MEMBERS_ROUTES: readonly RouteContract[] = [
  ListMembersRoute,
  InviteMembersRoute,
  UpdateMemberAccessRoute,
  UpdateMemberRoleRoute,
  ListAuditRoute,
  DeleteMemberRoute,
  UpdateChatAccessRoute,
  ListApiTokensRoute,
  CreateApiTokenRoute,
  RevokeApiTokenRoute,
  SignInRoute,
  AcceptInvitationRoute,
  SignOutRoute,
  SignOutEverywhereRoute,
  MeRoute,
];
