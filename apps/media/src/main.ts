import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapMediaService } from '@mapi/media-feature';

runMain('media', bootstrapMediaService);
