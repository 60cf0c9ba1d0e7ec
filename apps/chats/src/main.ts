import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapChatsService } from '@mapi/chats-feature';

runMain('chats', bootstrapChatsService);
