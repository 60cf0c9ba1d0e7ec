import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapMembersService } from '@mapi/members-feature';

runMain('members', bootstrapMembersService);
