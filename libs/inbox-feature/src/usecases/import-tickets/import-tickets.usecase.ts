import {
  ImportTicketFields,
  ImportTicketItem,
  type ImportBatchResponse,
  type ImportItemResult,
  type ImportTicketsRequest,
  type PhoneDirectory,
  type RequestContext,
} from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { ChatLookup } from '../../chat-lookup';
import { ItemRefused, eachItem, record, str } from '../../imports/import-items';
import { changedColumns, findKept, newKeptId, uuidId } from '../../imports/kept-id';
import { ticketFields } from './ticket-fields';

/**
 * inbox.v1.import.tickets (the importer): tickets with their status, priority, assignee, dates,
 * labels, custom property values, quoted and attached messages and actors, as the source has them
 * (imported history keeps its dates). The ticket is the phone's that holds its chat here. No
 * ticket.* event is written (a backfill), and the messages are not attached through the chats service
 * (its message import keeps each message's message_ticket_id); a later PATCH works on the row as on any.
 */
export class ImportTickets {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly chats: ChatLookup,
    private readonly phones: PhoneDirectory,
  ) {}

  async execute({ ctx, body }: ImportTicketsRequest): Promise<ImportBatchResponse> {
    const own = new Set((await this.phones({ org_id: ctx.org_id, connected: false })).map((p) => p.phone_id));
    const labels = new Map(
      (await this.prisma.inboxLabel.findMany({ where: { org_id: ctx.org_id }, select: { label_id: true, name: true } })).map((l) => [
        l.label_id,
        l.name,
      ]),
    );
    const properties = new Set(
      (
        await this.prisma.inboxCustomProperty.findMany({ where: { org_id: ctx.org_id, type: 'ticket' }, select: { property_id: true } })
      ).map((p) => p.property_id),
    );
    const phoneOfChat = new Map<string, string>();
    const phoneFor = async (chatId: string, given: string | null): Promise<string> => {
      if (given && own.has(given)) return given;
      const known =
        phoneOfChat.get(chatId) ??
        (await this.chats.chat(ctx, chatId).then(
          (c) => c.phone_id,
          () => null,
        ));
      if (!known) throw new ItemRefused(`no phone of this organization holds the chat ${chatId}`);
      phoneOfChat.set(chatId, known);
      return known;
    };
    const results = await eachItem(body.items, ImportTicketItem, async (item) => {
      const info = record(item.ticket.ticket);
      const t = info ?? item.ticket;
      const head = ImportTicketFields.safeParse(t);
      if (!head.success) throw head.error;
      const phoneId = await phoneFor(head.data.chat_id, str(item.phone_id) ?? str(t.phone_id));
      const data = ticketFields(t, head.data, info ? item.ticket : null, { labels, properties });
      return this.write(ctx, item, { ...data, phone_id: phoneId });
    });
    return { results };
  }

  private async write(ctx: RequestContext, item: ImportTicketItem, data: Record<string, unknown>): Promise<ImportItemResult> {
    const table = this.prisma.inboxTicket;
    const here = await findKept(table, 'ticket_id', ctx.org_id, item, uuidId);
    if (here) {
      const changes = changedColumns(here, data);
      if (!Object.keys(changes).length) return { source_id: item.source_id, target_id: here.ticket_id, outcome: 'skipped' };
      await table.update({ where: { ticket_id: here.ticket_id, org_id: ctx.org_id }, data: changes as Prisma.InboxTicketUpdateInput });
      return { source_id: item.source_id, target_id: here.ticket_id, outcome: 'updated' };
    }
    const ticketId = await newKeptId(table, 'ticket_id', item, uuidId);
    await table.create({ data: { ...(data as Prisma.InboxTicketUncheckedCreateInput), ticket_id: ticketId, org_id: ctx.org_id } });
    return { source_id: item.source_id, target_id: ticketId, outcome: 'created' };
  }
}
