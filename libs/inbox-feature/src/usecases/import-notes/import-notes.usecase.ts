import {
  ImportNoteItem,
  type ImportBatchResponse,
  type ImportItemResult,
  type ImportNotesRequest,
  type PhoneDirectoryEntry,
  type RequestContext,
} from '@mapi/contracts';
import type { PhoneDirectory } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { ChatLookup } from '../../chat-lookup';
import { ItemRefused, date, eachItem, str } from '../../imports/import-items';
import { changedColumns, findKept, newKeptId, textId } from '../../imports/kept-id';

/**
 * inbox.v1.import.notes (the importer): private notes with their text, quoted message, author and
 * times. The note is the phone's given (one of this organization's), else the phone of its
 * `org_phone` here, else the phone that holds the chat here. The id is the note's message_id (any
 * text up to 200), kept when free. No note.created event (a backfill). Notes are text only, as
 * POST /note/create: a media note is refused.
 */
export class ImportNotes {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly chats: ChatLookup,
    private readonly phones: PhoneDirectory,
  ) {}

  async execute({ ctx, body }: ImportNotesRequest): Promise<ImportBatchResponse> {
    const own = await this.phones({ org_id: ctx.org_id, connected: false });
    return { results: await eachItem(body.items, ImportNoteItem, (item) => this.one(ctx, own, item)) };
  }

  private async phoneOf(ctx: RequestContext, own: PhoneDirectoryEntry[], item: ImportNoteItem): Promise<PhoneDirectoryEntry> {
    const given = own.find((p) => p.phone_id === item.phone_id);
    if (given) return given;
    const byNumber = item.org_phone ? own.find((p) => p.org_phone === item.org_phone) : undefined;
    if (byNumber) return byNumber;
    const phoneId = await this.chats.chat(ctx, item.chat_id).then(
      (c) => c.phone_id,
      () => null,
    );
    const holder = own.find((p) => p.phone_id === phoneId);
    if (!holder) throw new ItemRefused(`no phone of this organization holds the chat ${item.chat_id}`);
    return holder;
  }

  private async one(ctx: RequestContext, own: PhoneDirectoryEntry[], item: ImportNoteItem): Promise<ImportItemResult> {
    if (item.media !== undefined && item.media !== null)
      throw new ItemRefused('media: notes are text only here (a media note is not imported)');
    const phone = await this.phoneOf(ctx, own, item);
    const at = date(item.timestamp);
    if (item.timestamp && !at) throw new ItemRefused('timestamp is not a date');
    const data = {
      phone_id: phone.phone_id,
      chat_id: item.chat_id,
      org_phone: phone.org_phone ?? item.org_phone ?? '',
      body: item.body,
      quoted_message_id: str(item.quoted_message_id),
      performed_by: str(item.performed_by),
      ...(at ? { timestamp: at, updated_at: date(item.updated_at) ?? at } : {}),
    };
    const table = this.prisma.inboxNote;
    const here = await findKept(table, 'note_id', ctx.org_id, item, textId);
    if (here) {
      const changes = changedColumns(here, data);
      if (!Object.keys(changes).length) return { source_id: item.source_id, target_id: here.note_id, outcome: 'skipped' };
      await table.update({ where: { note_id: here.note_id, org_id: ctx.org_id }, data: changes });
      return { source_id: item.source_id, target_id: here.note_id, outcome: 'updated' };
    }
    const noteId = await newKeptId(table, 'note_id', item, textId);
    await table.create({ data: { ...data, note_id: noteId, org_id: ctx.org_id } });
    return { source_id: item.source_id, target_id: noteId, outcome: 'created' };
  }
}
