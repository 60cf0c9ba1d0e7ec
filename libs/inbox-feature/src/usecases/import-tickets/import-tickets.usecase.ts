import type { ImportBatchResponse, ImportInboxRequest, PhoneDirectory } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { ChatLookup } from '../../chat-lookup';
import { date, eachItem, int, str, upsertKeptId, type KeptIdTable } from '../../imports/kept-id-upsert';

const STATUSES = new Set(['open', 'inprogress', 'closed', 'archived']);

/**
 * inbox.v1.import.tickets (the importer): tickets with their status, priority, assignee, dates,
 * labels, custom property values and quoted message, on the phone that holds the chat here (the
 * ticket object names no phone). Imported dates are kept: history keeps its history.
 */
export class ImportTickets {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly chats: ChatLookup,
    private readonly phones: PhoneDirectory,
  ) {}

  async execute({ ctx, body }: ImportInboxRequest): Promise<ImportBatchResponse> {
    const own = new Set((await this.phones({ org_id: ctx.org_id, connected: false })).map((p) => p.phone_id));
    const phoneOfChat = new Map<string, string>();
    const results = await eachItem(body.items, async (item, sourceId) => {
      const t = (item.ticket && typeof item.ticket === 'object' ? item.ticket : item) as Record<string, unknown>;
      const chatId = str(t.chat_id);
      const subject = str(t.subject);
      if (!chatId || !subject) throw new Error('a ticket needs chat_id and subject');
      let phoneId = str(item.phone_id);
      if (!phoneId || !own.has(phoneId)) {
        phoneId = phoneOfChat.get(chatId) ?? (await this.chats.chat(ctx, chatId).then((c) => c.phone_id).catch(() => null));
        if (!phoneId) throw new Error(`no phone here holds the chat ${chatId}`);
        phoneOfChat.set(chatId, phoneId);
      }
      const closed = (t.close_ticket_metadata ?? {}) as Record<string, unknown>;
      const status = str(t.status) ?? 'open';
      const created = date(t.created_at) ?? new Date();
      return upsertKeptId(this.prisma.inboxTicket as unknown as KeptIdTable, 'ticket_id', ctx.org_id, {
        source_id: sourceId,
        target_id: str(item.target_id) ?? undefined,
        data: {
          phone_id: phoneId,
          chat_id: chatId,
          subject: subject.slice(0, 500),
          status: STATUSES.has(status) ? status : 'open',
          priority: Math.min(4, Math.max(1, int(t.priority, 1))),
          assignee: str(t.assignee),
          assigned_by: str(t.assigned_by),
          first_assigned_at: date(t.first_assigned_at),
          raised_by: str(t.raised_by),
          quoted_message_id: str(t.quoted_message_id),
          due_date: date(t.due_date),
          labels: Object.keys((t.label_ids as Record<string, unknown>) ?? {}).map((l) => l.toLowerCase()).sort(),
          custom_properties: (t.custom_properties && typeof t.custom_properties === 'object' ? t.custom_properties : {}) as object,
          closed_at: date(t.closed_at),
          closed_by: str(closed.closed_by),
          is_deleted: t.is_deleted === true,
          created_at: created,
          last_updated_at: date(t.last_updated_at) ?? created,
          last_updated_by: str(t.last_updated_by),
        },
      });
    });
    return { results };
  }
}
