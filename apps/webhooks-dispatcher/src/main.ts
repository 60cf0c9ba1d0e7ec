import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapWebhooksService } from '@mapi/webhooks-feature';

runMain('webhooks-dispatcher', bootstrapWebhooksService);
