import { createElement } from 'react';
import type { PageDef } from '../../app/page';
import { ChatsPage } from './ChatsPage';

export const chatsPages: PageDef[] = [
  { path: '/chats', nav: 'Chats', render: () => createElement(ChatsPage) },
  { path: '/chats/:chat_id', title: 'Chats', render: ({ chat_id }) => createElement(ChatsPage, { chatId: chat_id }) },
];
