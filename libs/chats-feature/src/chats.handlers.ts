import {
  AttachTicketRpc,
  ChatCopiesInReachRpc,
  ChatCopiesWithLabelRpc,
  CountUnreadChatsRpc,
  ChatsInReachRpc,
  ChoosePhoneRpc,
  CreateContactRpc,
  DeleteMessageRpc,
  DropCustomPropertyRpc,
  DropLabelCopiesRpc,
  RenameLabelCopiesRpc,
  EditMessageRpc,
  FlagMessageRpc,
  ForwardMessageRpc,
  GetChatRpc,
  GetContactRpc,
  GetMessageRpc,
  ListAllMessagesRpc,
  ListAllNotificationsRpc,
  ListChatNotificationsRpc,
  ListChatMessagesRpc,
  ListChatsRpc,
  ListContactsRpc,
  ListReactionsRpc,
  PinMessageRpc,
  ReactMessageRpc,
  ReadChatRpc,
  SetChatAccessRpc,
  SetChatPropertiesRpc,
  UpdateContactLabelsRpc,
  UpdateContactRpc,
  ImportChatsRpc,
  ImportContactsRpc,
  ImportMessagesRpc,
  ImportReactionsRpc,
  type PhoneDirectory,
} from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { SessionCommands } from '@mapi/events';
import { rpcHandler } from '@mapi/platform';
import { ChatRepository } from './repositories/chat-repository';
import { ImportChats } from './usecases/import-chats/import-chats.usecase';
import { ImportContacts } from './usecases/import-contacts/import-contacts.usecase';
import { ImportMessages } from './usecases/import-messages/import-messages.usecase';
import { ImportReactions } from './usecases/import-reactions/import-reactions.usecase';
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
import { ContactRepository } from './repositories/contact-repository';
import { CreateContact } from './usecases/create-contact/create-contact.usecase';
import { GetContact } from './usecases/get-contact/get-contact.usecase';
import { ListContacts } from './usecases/list-contacts/list-contacts.usecase';
import { UpdateContactLabels } from './usecases/update-contact-labels/update-contact-labels.usecase';
import { UpdateContact } from './usecases/update-contact/update-contact.usecase';
import { MessageRefRepository } from './repositories/message-ref-repository';
import { DeleteMessage } from './usecases/delete-message/delete-message.usecase';
import { EditMessage } from './usecases/edit-message/edit-message.usecase';
import { FlagMessage } from './usecases/flag-message/flag-message.usecase';
import { ForwardMessage } from './usecases/forward-message/forward-message.usecase';
import { GetMessage } from './usecases/get-message/get-message.usecase';
import { PinMessage } from './usecases/pin-message/pin-message.usecase';
import { ReactMessage } from './usecases/react-message/react-message.usecase';
import { AttachTicket } from './usecases/attach-ticket/attach-ticket.usecase';
import { ChatPropertiesRepository } from './repositories/chat-properties-repository';
import { ReachRepository } from './repositories/reach-repository';
import { ChatsInReach } from './usecases/chats-in-reach/chats-in-reach.usecase';
import { CopiesInReach } from './usecases/copies-in-reach/copies-in-reach.usecase';
import { CopiesWithLabel } from './usecases/copies-with-label/copies-with-label.usecase';
import { CountUnreadChats } from './usecases/count-unread-chats/count-unread-chats.usecase';
import { ChatCountsRepository } from './repositories/chat-counts-repository';
import { DropCustomProperty } from './usecases/drop-custom-property/drop-custom-property.usecase';
import { DropLabelCopies } from './usecases/drop-label-copies/drop-label-copies.usecase';
import { RenameLabelCopies } from './usecases/rename-label-copies/rename-label-copies.usecase';
import { SetChatAccess } from './usecases/set-chat-access/set-chat-access.usecase';
import { SetChatProperties } from './usecases/set-chat-properties/set-chat-properties.usecase';
import { chatPropertyEvents } from './chats/chat-property-events';

export interface ChatsDeps {
  prisma: PrismaClient;
  /** The phones service's directory (the phones table is its own). */
  phoneDirectory: PhoneDirectory;
  /** Commands to a phone's session (message actions act through the phone that holds the message). */
  sessions: SessionCommands;
}

const serve = rpcHandler<ChatsDeps>();

/** What the chats service answers: one line per operation, its contract and its use case. */
export const CHATS_HANDLERS = [
  serve(ListChatMessagesRpc, (d) => new ListChatMessages(new MessageRepository(d.prisma))),
  serve(ListAllMessagesRpc, (d) => new ListAllMessages(new MessageRepository(d.prisma))),
  serve(ListChatsRpc, (d) => new ListChats(new ChatViewRepository(d.prisma), new MessageRepository(d.prisma))),
  serve(GetChatRpc, (d) => new GetChat(new ChatViewRepository(d.prisma), new MessageRepository(d.prisma))),
  serve(ReadChatRpc, (d) => new ReadChat(new ChatRepository(d.prisma), d.sessions)),
  serve(ListReactionsRpc, (d) => new ListReactions(new ReactionRepository(d.prisma))),
  serve(ListContactsRpc, (d) => new ListContacts(new ContactRepository(d.prisma))),
  serve(GetContactRpc, (d) => new GetContact(new ContactRepository(d.prisma))),
  serve(UpdateContactRpc, (d) => new UpdateContact(new ContactRepository(d.prisma))),
  serve(UpdateContactLabelsRpc, (d) => new UpdateContactLabels(new ContactRepository(d.prisma))),
  serve(CreateContactRpc, (d) => new CreateContact(new ContactRepository(d.prisma))),
  serve(ChoosePhoneRpc, (d) => new ChooseActingPhone(new ChatRepository(d.prisma), d.phoneDirectory)),
  // the importer's writes (docs/services/imports.md)
  serve(ImportContactsRpc, (d) => new ImportContacts(d.prisma)),
  serve(ImportChatsRpc, (d) => new ImportChats(d.prisma, d.phoneDirectory)),
  serve(ImportMessagesRpc, (d) => new ImportMessages(d.prisma, d.phoneDirectory)),
  serve(ImportReactionsRpc, (d) => new ImportReactions(d.prisma, d.phoneDirectory)),
  serve(ListAllNotificationsRpc, (d) => new ListNotifications(new NotificationRepository(d.prisma))),
  serve(ListChatNotificationsRpc, (d) => new ListChatNotifications(new NotificationRepository(d.prisma))),
  serve(GetMessageRpc, (d) => new GetMessage(new MessageRefRepository(d.prisma))),
  serve(EditMessageRpc, (d) => new EditMessage(new MessageRefRepository(d.prisma), d.sessions)),
  serve(DeleteMessageRpc, (d) => new DeleteMessage(new MessageRefRepository(d.prisma), d.sessions)),
  serve(ReactMessageRpc, (d) => new ReactMessage(new MessageRefRepository(d.prisma), d.sessions)),
  serve(PinMessageRpc, (d) => new PinMessage(new MessageRefRepository(d.prisma), d.sessions)),
  serve(
    ForwardMessageRpc,
    (d) =>
      new ForwardMessage(
        new MessageRefRepository(d.prisma),
        d.sessions,
        new ChatsInReach(new ChatPropertiesRepository(d.prisma, chatPropertyEvents), new ReachRepository(d.prisma)),
      ),
  ),
  serve(AttachTicketRpc, (d) => new AttachTicket(new MessageRefRepository(d.prisma), d.prisma)),
  serve(FlagMessageRpc, (d) => new FlagMessage(new MessageRefRepository(d.prisma), d.prisma)),
  // chat labels and custom property values (internal: the inbox service validates, then sets)
  serve(
    ChatsInReachRpc,
    (d) => new ChatsInReach(new ChatPropertiesRepository(d.prisma, chatPropertyEvents), new ReachRepository(d.prisma)),
  ),
  serve(ChatCopiesInReachRpc, (d) => new CopiesInReach(new ReachRepository(d.prisma))),
  // asked by analytics: unread chats for GET /analytics/now, label narrowing for figures by label
  serve(CountUnreadChatsRpc, (d) => new CountUnreadChats(new ChatCountsRepository(d.prisma))),
  serve(ChatCopiesWithLabelRpc, (d) => new CopiesWithLabel(new ChatCountsRepository(d.prisma))),
  serve(SetChatPropertiesRpc, (d) => new SetChatProperties(new ChatPropertiesRepository(d.prisma, chatPropertyEvents))),
  serve(SetChatAccessRpc, (d) => new SetChatAccess(new ChatPropertiesRepository(d.prisma, chatPropertyEvents))),
  serve(DropCustomPropertyRpc, (d) => new DropCustomProperty(new ChatPropertiesRepository(d.prisma, chatPropertyEvents))),
  serve(RenameLabelCopiesRpc, (d) => new RenameLabelCopies(new ChatPropertiesRepository(d.prisma, chatPropertyEvents))),
  serve(DropLabelCopiesRpc, (d) => new DropLabelCopies(new ChatPropertiesRepository(d.prisma, chatPropertyEvents))),
];
