import { GetChatRpc, ListLabelsRpc, UpdateChatLabelsRpc } from '@mapi/contracts';
import { ActionError, actionCtx, type ActionContext, type RpcCaller } from './action-context';

/**
 * add_chat_label / remove_chat_label on the event's chat: the chat's labels are read (chats service),
 * named through the label catalogue (inbox), and the changed set written through the inbox's labels
 * RPC (which creates names it does not know). Adding a label the chat has, or removing one it lacks,
 * changes nothing, so a repeated step is harmless.
 */
export async function changeChatLabels(rpc: RpcCaller, c: ActionContext, mode: 'add' | 'remove'): Promise<Record<string, unknown>> {
  const chatId = c.run.chat_id;
  if (!chatId) throw new ActionError('the event has no chat to label');
  const ctx = actionCtx(c.run);
  const chat = await rpc.call(GetChatRpc, { ctx, params: { chat_id: chatId } });
  const catalogue = await rpc.call(ListLabelsRpc, { ctx, query: { offset: 0, limit: 2000, type: 'chat' } });
  const names = new Map(catalogue.labels.map((l) => [l.label_id, l.name]));
  const current = Object.entries(chat.label_ids)
    .filter(([, on]) => on)
    .map(([id]) => names.get(id) ?? id.toLowerCase());
  const given = (c.metadata.labels as string[]).map((l) => l.trim().toLowerCase());
  const next = mode === 'add' ? [...new Set([...current, ...given])] : current.filter((l) => !given.includes(l));
  if (next.length !== current.length || next.some((l) => !current.includes(l))) {
    await rpc.call(UpdateChatLabelsRpc, { ctx, body: { labels: next.join(','), chat_ids: [chatId] } });
  }
  return { chat_details: { chat_id: chatId, org_id: c.run.org_id, labels: next } };
}
