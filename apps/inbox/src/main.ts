import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapInboxService } from '@mapi/inbox-feature';

runMain('inbox', bootstrapInboxService);
