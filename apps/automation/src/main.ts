import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapAutomationService } from '@mapi/automation-feature';

runMain('automation', bootstrapAutomationService);
