import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapQueueService } from '@mapi/queue-feature';

runMain('queue', bootstrapQueueService);
