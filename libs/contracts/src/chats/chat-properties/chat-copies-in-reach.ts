import type { RequestContext } from '../../common/request-context';
import type { RpcCaller } from '../../rpc/rpc-caller';
import { ChatCopiesInReachRpc, ChatsInReachRpc, type ChatCopy } from './chat-properties.contract';

/** The contracts' limit on copies (or chat ids) per call. */
const COPIES_PER_CALL = 1000;

/**
 * The one client of chats.v1.chat.copies-in-reach, for the services that keep rows or events tied
 * to chats (the inbox's rows, realtime events, the queue's job listings): of the given copies, those
 * within the ctx's reach, asked in calls of up to 1,000 copies one after another. No copies, no call.
 */
export async function chatCopiesInReach(rpc: RpcCaller, ctx: RequestContext, copies: readonly ChatCopy[]): Promise<ChatCopy[]> {
  const reached: ChatCopy[] = [];
  for (let i = 0; i < copies.length; i += COPIES_PER_CALL) {
    const answer = await rpc.call(ChatCopiesInReachRpc, { ctx, body: { copies: copies.slice(i, i + COPIES_PER_CALL) } });
    reached.push(...answer.reached);
  }
  return reached;
}

/**
 * The one client of chats.v1.chat.in-reach (the inbox's label and property writes, the queue's
 * sends): of the given chat ids, those no phone within the ctx's reach holds, asked in calls of up to
 * 1,000 ids one after another; with `toSend`, as a send sees it (a member who sees every label may
 * start a chat no phone of theirs holds yet). No ids, no call.
 */
export async function chatsOutOfReach(
  rpc: RpcCaller,
  ctx: RequestContext,
  chatIds: readonly string[],
  options: { toSend?: boolean } = {},
): Promise<string[]> {
  const ids = [...new Set(chatIds)];
  const missing: string[] = [];
  for (let i = 0; i < ids.length; i += COPIES_PER_CALL) {
    const body = { chat_ids: ids.slice(i, i + COPIES_PER_CALL), ...(options.toSend ? { to_send: true } : {}) };
    missing.push(...(await rpc.call(ChatsInReachRpc, { ctx, body })).missing);
  }
  return missing;
}
