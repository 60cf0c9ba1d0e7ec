import type { ImportBatchResponse, ImportInboxRequest, PhoneDirectory } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { date, eachItem, str, upsertKeptId, type KeptIdTable } from '../../imports/kept-id-upsert';

/** inbox.v1.import.notes (the importer): private notes with their text, author and time, on our phone. */
export class ImportNotes {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly phones: PhoneDirectory,
  ) {}

  async execute({ ctx, body }: ImportInboxRequest): Promise<ImportBatchResponse> {
    const own = new Set((await this.phones({ org_id: ctx.org_id, connected: false })).map((p) => p.phone_id));
    const results = await eachItem(body.items, async (item, sourceId) => {
      const phoneId = str(item.phone_id);
      const chatId = str(item.chat_id);
      const text = str(item.body) ?? str(item.message);
      if (!phoneId || !own.has(phoneId)) throw new Error(`${phoneId ?? 'no phone'} is not a phone of this organization`);
      if (!chatId || !text) throw new Error('a note needs chat_id and body');
      const at = date(item.timestamp) ?? new Date();
      return upsertKeptId(this.prisma.inboxNote as unknown as KeptIdTable, 'note_id', ctx.org_id, {
        source_id: sourceId,
        target_id: str(item.target_id) ?? undefined,
        data: { phone_id: phoneId, chat_id: chatId, org_phone: str(item.org_phone) ?? '', body: text, quoted_message_id: str(item.quoted_message_id), performed_by: str(item.performed_by), timestamp: at, updated_at: date(item.updated_at) ?? at },
      }, false);
    });
    return { results };
  }
}
