import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapPhonesService } from '@mapi/phones-feature';

runMain('phones', bootstrapPhonesService);
