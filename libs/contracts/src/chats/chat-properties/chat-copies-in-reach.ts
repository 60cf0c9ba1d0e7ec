import type { RequestContext } from '../../common/request-context';
import type { RpcCaller } from '../../rpc/rpc-caller';
import { ChatCopiesInReachRpc, type ChatCopy } from './chat-properties.contract';

/** The contract's limit on copies per call. */
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
