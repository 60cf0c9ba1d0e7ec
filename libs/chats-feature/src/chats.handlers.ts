import { ChoosePhoneRpc, ListChatMessagesRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { rpcHandler } from '@mapi/platform';
import { ChatRepository } from './repositories/chat-repository';
import { MessageRepository } from './repositories/message-repository';
import { ChooseActingPhone, type PhoneDirectory } from './usecases/choose-phone/choose-acting-phone.usecase';
import { ListChatMessages } from './usecases/list-chat-messages/list-chat-messages.usecase';

export interface ChatsDeps {
  prisma: PrismaClient;
  /** The phones service's directory (the phones table is its own). */
  phoneDirectory: PhoneDirectory;
}

const serve = rpcHandler<ChatsDeps>();

/** What the chats service answers: one line per operation, its contract and its use case. */
export const CHATS_HANDLERS = [
  serve(ListChatMessagesRpc, (d) => new ListChatMessages(new MessageRepository(d.prisma))),
  serve(ChoosePhoneRpc, (d) => new ChooseActingPhone(new ChatRepository(d.prisma), d.phoneDirectory)),
];
