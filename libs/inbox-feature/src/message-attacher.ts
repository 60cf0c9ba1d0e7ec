import { AttachTicketRpc, type Message, type RequestContext } from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';
import { onPhone } from './chat-lookup';

/** Attaches a message to a ticket in the chats service (its messages table holds message_ticket_id). */
export interface MessageAttacher {
  /** The message once attached, as the phone holds it. */
  attach(ctx: RequestContext, phoneId: string, messageId: string, ticketId: string): Promise<Message>;
}

/** MessageAttacher over `chats.v1.message.attach-ticket`. */
export class RpcMessageAttacher implements MessageAttacher {
  constructor(private readonly rpc: NatsRpcClient) {}

  attach(ctx: RequestContext, phoneId: string, messageId: string, ticketId: string): Promise<Message> {
    return this.rpc.call(AttachTicketRpc, { ctx: onPhone(ctx, phoneId), params: { message_id: messageId }, body: { ticket_id: ticketId } });
  }
}
