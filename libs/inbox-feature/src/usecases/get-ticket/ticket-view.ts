import type { Message, RequestContext, TicketInfo } from '@mapi/contracts';
import { onPhone, type ChatLookup } from '../../chat-lookup';
import { mapTicketInfo } from '../../map-ticket';
import type { TicketRow } from '../../repositories/ticket-repository';

/** A ticket's chat and messages, as its phone holds them (read from the chats service). */
export async function ticketRelations(chats: ChatLookup, ctx: RequestContext, row: TicketRow) {
  const ids = [...new Set([...(row.quoted_message_id ? [row.quoted_message_id] : []), ...row.attached_message_ids])];
  const [chat, ...found] = await Promise.all([
    chats.chat(onPhone(ctx, row.phone_id), row.chat_id),
    ...ids.map((id) => chats.message(ctx, row.phone_id, id)),
  ]);
  const byId = new Map(ids.map((id, i) => [id, found[i] as Message | null]));
  const quoted = row.quoted_message_id ? (byId.get(row.quoted_message_id) ?? null) : null;
  const attached = row.attached_message_ids.map((id) => byId.get(id)).filter((m): m is Message => !!m);
  return { chat, quoted, attached };
}

/** The ticket as its routes answer it (`TicketInfoType`). */
export async function ticketInfo(chats: ChatLookup, ctx: RequestContext, row: TicketRow): Promise<TicketInfo> {
  const { chat, quoted, attached } = await ticketRelations(chats, ctx, row);
  return mapTicketInfo(row, chat, quoted, attached);
}
