import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { ListChatMessagesRpc, type ListChatMessagesRequest } from '@mapi/contracts';
import { ListChatMessages } from './usecases/list-chat-messages/list-chat-messages.usecase';

/** NATS handlers of the chats service; requests arrive validated against their contracts. */
@Controller()
export class ChatsController {
  constructor(@Inject(ListChatMessages) private readonly listChatMessages: ListChatMessages) {}

  @MessagePattern(ListChatMessagesRpc.subject)
  list(request: ListChatMessagesRequest) {
    return this.listChatMessages.execute(request);
  }
}
