import { Errors, chatCopiesInReach, chatsOutOfReach, type RequestContext } from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';

/**
 * A member's sends (docs/services/members.md, "What a member sees"): only to chats within their
 * phones, labels and overrides, which the chats service decides (chats.v1.chat.in-reach with
 * to_send, one call per request); a member who sees every label may also start a chat no phone of
 * theirs holds yet. A chat outside reach is 404 "Chat not found", as GET /chats/{chat_id} answers,
 * and nothing is queued. Bearer tokens, owners and admins: no call (phones only, as before).
 */
export type SendReach = (ctx: RequestContext, chatIds: string[]) => Promise<void>;

export const CHAT_NOT_FOUND = 'Chat not found';

export function sendReachOverRpc(rpc: Pick<NatsRpcClient, 'call'>): SendReach {
  return async (ctx, chatIds) => {
    if (ctx.member?.role !== 'member' || !chatIds.length) return;
    if ((await chatsOutOfReach(rpc, ctx, chatIds, { toSend: true })).length) throw Errors.notFound(CHAT_NOT_FOUND);
  };
}

/**
 * A member's job listings (GET /queue/jobs, POST /message/queues): of the phone's jobs, those whose
 * chat is within the member's labels and overrides (chats.v1.chat.copies-in-reach for the phone's copies
 * of the jobs' chats, in chunks of 1000). Answers the chat ids in reach, or null for a ctx that is not a
 * member's (tokens, owners, admins: the phone is all the reach there is, checked by the gateway).
 */
export type JobsReach = (ctx: RequestContext, phoneId: string, chatIds: string[]) => Promise<Set<string> | null>;

export function jobsReachOverRpc(rpc: Pick<NatsRpcClient, 'call'>): JobsReach {
  return async (ctx, phoneId, chatIds) => {
    if (ctx.member?.role !== 'member') return null;
    const copies = [...new Set(chatIds)].map((chat_id) => ({ phone_id: phoneId, chat_id }));
    return new Set((await chatCopiesInReach(rpc, ctx, copies)).map((c) => c.chat_id));
  };
}
