import { ChoosePhoneRpc, GetChatRpc, ListAllMessagesRpc, ListChatMessagesRpc, ListChatsRpc, ListReactionsRpc, ReadChatRpc, type PhoneDirectory } from '@mapi/contracts';
import { ListAllNotificationsRpc, ListChatNotificationsRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { rpcHandler } from '@mapi/platform';
import { ChatRepository } from './repositories/chat-repository';
import { ReactionRepository } from './repositories/reaction-repository';
import { ChatViewRepository } from './repositories/chat-view-repository';
import { MessageRepository } from './repositories/message-repository';
import { NotificationRepository } from './repositories/notification-repository';
import { ChooseActingPhone } from './usecases/choose-phone/choose-acting-phone.usecase';
import { GetChat } from './usecases/get-chat/get-chat.usecase';
import { ListAllMessages } from './usecases/list-all-messages/list-all-messages.usecase';
import { ListChatMessages } from './usecases/list-chat-messages/list-chat-messages.usecase';
import { ListChats } from './usecases/list-chats/list-chats.usecase';
import { ListReactions } from './usecases/list-reactions/list-reactions.usecase';
import { ReadChat } from './usecases/read-chat/read-chat.usecase';
import { ListNotifications } from './usecases/list-notifications/list-notifications.usecase';
import { ListChatNotifications } from './usecases/list-chat-notifications/list-chat-notifications.usecase';

export interface ChatsDeps {
  prisma: PrismaClient;
  /** The phones service's directory (the phones table is its own). */
  phoneDirectory: PhoneDirectory;
}

const serve = rpcHandler<ChatsDeps>();

/** What the chats service answers: one line per operation, its contract and its use case. */
export const CHATS_HANDLERS = [
  serve(ListChatMessagesRpc, (d) => new ListChatMessages(new MessageRepository(d.prisma))),
  serve(ListAllMessagesRpc, (d) => new ListAllMessages(new MessageRepository(d.prisma))),
  serve(ListChatsRpc, (d) => new ListChats(new ChatViewRepository(d.prisma), new MessageRepository(d.prisma))),
  serve(GetChatRpc, (d) => new GetChat(new ChatViewRepository(d.prisma), new MessageRepository(d.prisma))),
  serve(ReadChatRpc, (d) => new ReadChat(new ChatRepository(d.prisma))),
  serve(ListReactionsRpc, (d) => new ListReactions(new ReactionRepository(d.prisma))),
  serve(ChoosePhoneRpc, (d) => new ChooseActingPhone(new ChatRepository(d.prisma), d.phoneDirectory)),
  serve(ListAllNotificationsRpc, (d) => new ListNotifications(new NotificationRepository(d.prisma))),
  serve(ListChatNotificationsRpc, (d) => new ListChatNotifications(new NotificationRepository(d.prisma))),
];
