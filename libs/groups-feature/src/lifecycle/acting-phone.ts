import { ChoosePhoneRpc, Errors, GetChatRpc, PhoneDirectoryRpc, type ChatView, type RequestContext } from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';

export interface ActingPhone {
  phone_id: string;
  org_phone: string;
}

/** The x-phone phone, which must be paired (400 ERROR otherwise). */
function named(ctx: RequestContext): ActingPhone | null {
  if (!ctx.phone) return null;
  if (!ctx.phone.org_phone) throw Errors.phoneUnavailable('The phone is not paired yet: scan its QR first');
  return { phone_id: ctx.phone.phone_id, org_phone: ctx.phone.org_phone };
}

/**
 * The phone acting on an existing group: the group must be within reach first (GET /chats/{chat_id}
 * answers it: 404 for a missing or another organization's group, the same answer, before any phone
 * acts); then x-phone, or the shared rule (chats.v1.choose-phone; `needAdmin` for admin actions).
 */
export async function phoneForGroup(rpc: NatsRpcClient, ctx: RequestContext, chatId: string, needAdmin: boolean): Promise<ActingPhone> {
  await rpc.call(GetChatRpc, { ctx, params: { chat_id: chatId } });
  return named(ctx) ?? rpc.call(ChoosePhoneRpc, { ctx, chat_id: chatId, need_admin: needAdmin });
}

/** The phone acting where there is no group yet (create, accept-invite): x-phone, or the first-created connected phone within the token's scope. */
export async function phoneForNewGroup(rpc: NatsRpcClient, ctx: RequestContext): Promise<ActingPhone> {
  const phone = named(ctx);
  if (phone) return phone;
  if (ctx.phone_scope && ctx.phone_scope.length === 0) throw Errors.phoneUnavailable('The token reaches no phone');
  const [first] = await rpc.call(PhoneDirectoryRpc, { org_id: ctx.org_id, phone_ids: ctx.phone_scope, connected: true });
  if (!first?.org_phone) throw Errors.phoneUnavailable("No connected phone within the token's scope: connect one or name it with x-phone");
  return { phone_id: first.phone_id, org_phone: first.org_phone };
}

/**
 * The group as the chats store holds it for the acting phone (GET /chats/{chat_id}), once the
 * network's answer has been ingested there and `ready` holds: the connector hands the group on
 * before the session answers, and ingestion follows within moments. 504 if it does not in `waitMs`.
 * A member who created or joined a group sees it in this answer even when it carries none of their
 * labels yet (docs/services/members.md).
 */
export async function storedGroup(
  rpc: NatsRpcClient,
  ctx: RequestContext,
  phone: ActingPhone,
  chatId: string,
  ready: (chat: ChatView) => boolean = () => true,
  waitMs = 4_000,
): Promise<ChatView> {
  // the acting phone's copy, read without a member's labels and overrides: the caller was checked
  // against them before acting (phoneForGroup), or has just created or joined the group itself
  const narrowed = { ...ctx, phone, member: null };
  const until = Date.now() + waitMs;
  for (let pause = 50; ; pause = Math.min(pause * 2, 400)) {
    const chat = await rpc.call(GetChatRpc, { ctx: narrowed, params: { chat_id: chatId } }).catch((err: unknown) => {
      if ((err as { status?: number }).status === 404) return null;
      throw err;
    });
    if (chat && ready(chat)) return chat;
    if (Date.now() > until)
      throw Errors.timeout(
        'The network made the change, but the group has not reached the chats store yet: read it with GET /chats/{chat_id}',
      );
    await new Promise((r) => setTimeout(r, pause));
  }
}
