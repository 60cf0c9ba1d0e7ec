import { Errors, GetChatRpc, GetMessageRpc, ServiceError, type ChatView, type Message, type RequestContext } from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';

/**
 * What the inbox reads of the chats service, through its RPCs (the chats and messages tables are
 * its own): a chat within the caller's reach, and a message of a phone's copy of a chat.
 */
export interface ChatLookup {
  /** The chat as GET /chats/{chat_id} gives it to this context; 404 (ServiceError) when out of reach. */
  chat(ctx: RequestContext, chatId: string): Promise<ChatView>;
  /** The message as the given phone holds it; null when that phone has no such message. */
  message(ctx: RequestContext, phoneId: string, messageId: string): Promise<Message | null>;
}

/** The context narrowed to one phone, as an `x-phone` header would narrow it. */
export const onPhone = (ctx: RequestContext, phoneId: string, orgPhone: string | null = null): RequestContext => ({
  ...ctx,
  phone: { phone_id: phoneId, org_phone: orgPhone },
});

/** The phones a request reaches: the x-phone phone, else the token's (null: every phone of the organization). */
export const phonesInReach = (ctx: RequestContext): string[] | null => (ctx.phone ? [ctx.phone.phone_id] : ctx.phone_scope);

/** ChatLookup over the chats service's RPCs. */
export class RpcChatLookup implements ChatLookup {
  constructor(private readonly rpc: NatsRpcClient) {}

  chat(ctx: RequestContext, chatId: string): Promise<ChatView> {
    return this.rpc.call(GetChatRpc, { ctx, params: { chat_id: chatId } });
  }

  async message(ctx: RequestContext, phoneId: string, messageId: string): Promise<Message | null> {
    try {
      return await this.rpc.call(GetMessageRpc, { ctx: onPhone(ctx, phoneId), params: { message_id: messageId } });
    } catch (error) {
      if (error instanceof ServiceError && (error.status === 404 || error.status === 422)) return null;
      throw error;
    }
  }
}

/** The one "cannot see it" answer for tickets: missing, out of reach and another organization's read the same. */
export const ticketNotFound = () => Errors.notFound('Ticket not found');
export const noteNotFound = () => Errors.notFound('Note not found');
export const taskNotFound = () => Errors.notFound('Task not found');
