import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { ChoosePhoneRpc, ListChatMessagesRpc, type ChoosePhoneRequest, type ListChatMessagesRequest } from '@mapi/contracts';
import { ChooseActingPhone } from './usecases/choose-phone/choose-acting-phone.usecase';
import { ListChatMessages } from './usecases/list-chat-messages/list-chat-messages.usecase';

/** NATS handlers of the chats service; requests arrive validated against their contracts. */
@Controller()
export class ChatsController {
  constructor(
    @Inject(ListChatMessages) private readonly listChatMessages: ListChatMessages,
    @Inject(ChooseActingPhone) private readonly chooseActingPhone: ChooseActingPhone,
  ) {}

  @MessagePattern(ListChatMessagesRpc.subject)
  list(request: ListChatMessagesRequest) {
    return this.listChatMessages.execute(request);
  }

  @MessagePattern(ChoosePhoneRpc.subject)
  choosePhone(request: ChoosePhoneRequest) {
    return this.chooseActingPhone.execute(request);
  }
}
