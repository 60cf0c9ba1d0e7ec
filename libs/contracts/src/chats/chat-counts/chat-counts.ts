import type { RequestContext } from '../../common/request-context';
import type { RpcCaller } from '../../rpc/rpc-caller';
import type { ChatCopy } from '../chat-properties/chat-properties.contract';
import { ChatCopiesWithLabelRpc, CountUnreadChatsRpc } from './chat-counts.contract';

/** The contract's limit on copies per call. */
const COPIES_PER_CALL = 1000;

/** The one client of chats.v1.chat.count-unread: the chat copies with unread messages within the ctx's reach (and phone). */
export async function countUnreadChats(rpc: RpcCaller, ctx: RequestContext, phoneId?: string): Promise<number> {
  return (await rpc.call(CountUnreadChatsRpc, { ctx, body: phoneId === undefined ? {} : { phone_id: phoneId } })).count;
}

/**
 * The one client of chats.v1.chat.copies-with-label: of the given copies, those within the ctx's reach
 * carrying the label, asked in calls of up to 1,000 copies one after another. No copies, no call.
 */
export async function chatCopiesWithLabel(
  rpc: RpcCaller,
  ctx: RequestContext,
  copies: readonly ChatCopy[],
  label: string,
): Promise<ChatCopy[]> {
  const labelled: ChatCopy[] = [];
  for (let i = 0; i < copies.length; i += COPIES_PER_CALL) {
    const answer = await rpc.call(ChatCopiesWithLabelRpc, { ctx, body: { copies: copies.slice(i, i + COPIES_PER_CALL), label } });
    labelled.push(...answer.labelled);
  }
  return labelled;
}
