import type { ImportBatchResponse, ImportInboxRequest } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { ChatLookup } from '../../chat-lookup';
import { date, eachItem, int, str, upsertKeptId, type KeptIdTable } from '../../imports/kept-id-upsert';

const TYPES = new Set(['todo', 'chat', 'message', 'ticket']);
const STATUSES = new Set(['open', 'inprogress', 'closed']);

/**
 * inbox.v1.import.tasks (the importer): tasks as GET /tasks answers them (or `tbl_org_tasks` rows).
 * A reminder whose time has passed is history: it is stored as fired, so it never fires here; a
 * future one fires as any task's.
 */
export class ImportTasks {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly chats: ChatLookup,
  ) {}

  async execute({ ctx, body }: ImportInboxRequest): Promise<ImportBatchResponse> {
    const now = new Date();
    const results = await eachItem(body.items, async (item, sourceId) => {
      const title = str(item.title);
      if (!title) throw new Error('a task needs a title');
      const assoc = (item.association ?? {}) as Record<string, unknown>;
      const chatId = str(item.chat_id) ?? str(assoc.chat_id);
      const type = str(item.type) ?? (chatId ? 'chat' : 'todo');
      const phoneId = chatId ? await this.chats.chat(ctx, chatId).then((c) => c.phone_id).catch(() => null) : null;
      const remindAt = date(item.remind_at);
      const completed = (item.completed_metadata ?? {}) as Record<string, unknown>;
      const created = date(item.created_at) ?? now;
      const status = str(item.status) ?? 'open';
      return upsertKeptId(this.prisma.inboxTask as unknown as KeptIdTable, 'task_id', ctx.org_id, {
        source_id: sourceId,
        target_id: str(item.target_id) ?? undefined,
        data: {
          phone_id: phoneId,
          type: TYPES.has(type) ? type : 'todo',
          title: title.slice(0, 500),
          notes: str(item.notes),
          status: STATUSES.has(status) ? status : 'open',
          priority: Math.min(4, Math.max(1, int(item.priority, 1))),
          assignee: str(item.assignee),
          due_date: date(item.due_date),
          remind_at: remindAt,
          reminder_fired_at: remindAt && remindAt < now ? remindAt : null,
          reminder_setting: (item.reminder_setting ?? null) as Prisma.InputJsonValue | null,
          chat_id: chatId,
          message_id: str(item.message_id) ?? str(assoc.message_id),
          ticket_id: str(item.ticket_id) ?? str(assoc.ticket_id),
          associated_object_metadata: (item.associated_object_metadata ?? null) as Prisma.InputJsonValue | null,
          completed_at: date(completed.completed_at),
          completed_by: str(completed.completed_by),
          created_by: str(item.created_by) ?? 'import',
          created_at: created,
          last_updated_by: str(item.last_updated_by) ?? str(item.created_by) ?? 'import',
          last_updated_at: date(item.last_updated_at) ?? created,
        },
      });
    });
    return { results };
  }
}
