import { ImportChatItem, isGroupChatId, type ImportBatchResponse, type ImportChatsRequest, type ImportItemResult, type PhoneDirectory } from '@mapi/contracts';
import type { ImportChatRepository, ImportedChat, ImportedChatValues } from '../../imports/import-chat-repository';

const CHAT_ID = /^([0-9]{6,20}@c\.us|[0-9A-Za-z][0-9A-Za-z-]*@g\.us)$/;
const TYPES = new Set(['user', 'group', 'business']);

/**
 * chats.v1.import.chats (the importer): a source chat on each of this organization's phones that
 * holds it, with its labels, custom property values and assignee; created, updated or left as it is.
 * No chat.created events (history).
 */
export class ImportChats {
  constructor(
    private readonly chats: ImportChatRepository,
    private readonly phones: PhoneDirectory,
  ) {}

  async execute({ ctx, body }: ImportChatsRequest): Promise<ImportBatchResponse> {
    const own = new Map((await this.phones({ org_id: ctx.org_id, connected: false })).map((p) => [p.phone_id, p.org_phone]));
    const results: ImportItemResult[] = [];
    const copies: ImportedChat[] = [];
    const values: ImportedChatValues[] = [];
    const pending: number[] = [];
    for (const raw of body.items) {
      const sourceId = String((raw as { source_id?: unknown })?.source_id ?? '');
      const item = ImportChatItem.safeParse(raw);
      const fail = (reason: string) => results.push({ source_id: sourceId, target_id: null, outcome: 'failed', reason });
      if (!item.success) {
        fail(`not a chat item: ${item.error.issues[0]?.path.join('.')} ${item.error.issues[0]?.message}`);
        continue;
      }
      const chatId = item.data.source_id;
      if (!CHAT_ID.test(chatId)) {
        fail(`${chatId} is not a chat id`);
        continue;
      }
      const foreign = item.data.phones.find((p) => !own.has(p.phone_id));
      if (foreign) {
        fail(`${foreign.phone_id} is not a phone of this organization`);
        continue;
      }
      const chat = item.data.chat;
      const type = typeof chat.chat_type === 'string' && TYPES.has(chat.chat_type) ? chat.chat_type : isGroupChatId(chatId) ? 'group' : 'user';
      const created = typeof chat.created_at === 'string' && Number.isFinite(Date.parse(chat.created_at)) ? new Date(chat.created_at).toISOString() : new Date().toISOString();
      for (const p of item.data.phones) {
        copies.push({ org_id: ctx.org_id, phone_id: p.phone_id, chat_id: chatId, chat_name: typeof chat.chat_name === 'string' ? chat.chat_name : null, chat_type: type, org_phone: own.get(p.phone_id) ?? p.org_phone ?? null, created_at: created });
      }
      const props = Object.fromEntries(Object.entries(item.data.custom_properties).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, String(v)]));
      values.push({ chat_id: chatId, labels: item.data.labels, custom_properties: props, assigned_to: item.data.assigned_to ? item.data.assigned_to.toLowerCase() : null });
      results.push({ source_id: sourceId, target_id: chatId, outcome: 'skipped' });
      pending.push(results.length - 1);
    }
    const touched = await this.chats.write(ctx.org_id, copies, values);
    for (const i of pending) results[i].outcome = touched.get(results[i].source_id) ?? 'skipped';
    return { results };
  }
}
