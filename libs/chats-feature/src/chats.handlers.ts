import { ChoosePhoneRpc, CreateContactRpc, GetChatRpc, GetContactRpc, ListContactsRpc, UpdateContactLabelsRpc, UpdateContactRpc, ListAllMessagesRpc, ListChatMessagesRpc, ListChatsRpc, ListReactionsRpc, ReadChatRpc, type PhoneDirectory } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { rpcHandler } from '@mapi/platform';
import { ChatRepository } from './repositories/chat-repository';
import { ReactionRepository } from './repositories/reaction-repository';
import { ChatViewRepository } from './repositories/chat-view-repository';
import { MessageRepository } from './repositories/message-repository';
import { ChooseActingPhone } from './usecases/choose-phone/choose-acting-phone.usecase';
import { GetChat } from './usecases/get-chat/get-chat.usecase';
import { ListAllMessages } from './usecases/list-all-messages/list-all-messages.usecase';
import { ListChatMessages } from './usecases/list-chat-messages/list-chat-messages.usecase';
import { ListChats } from './usecases/list-chats/list-chats.usecase';
import { ListReactions } from './usecases/list-reactions/list-reactions.usecase';
import { ReadChat } from './usecases/read-chat/read-chat.usecase';
import { ContactRepository } from './repositories/contact-repository';
import { CreateContact } from './usecases/create-contact/create-contact.usecase';
import { GetContact } from './usecases/get-contact/get-contact.usecase';
import { ListContacts } from './usecases/list-contacts/list-contacts.usecase';
import { UpdateContactLabels } from './usecases/update-contact-labels/update-contact-labels.usecase';
import { UpdateContact } from './usecases/update-contact/update-contact.usecase';

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
  serve(ListContactsRpc, (d) => new ListContacts(new ContactRepository(d.prisma))),
  serve(GetContactRpc, (d) => new GetContact(new ContactRepository(d.prisma))),
  serve(UpdateContactRpc, (d) => new UpdateContact(new ContactRepository(d.prisma))),
  serve(UpdateContactLabelsRpc, (d) => new UpdateContactLabels(new ContactRepository(d.prisma))),
  serve(CreateContactRpc, (d) => new CreateContact(new ContactRepository(d.prisma))),
  serve(ChoosePhoneRpc, (d) => new ChooseActingPhone(new ChatRepository(d.prisma), d.phoneDirectory)),
];
