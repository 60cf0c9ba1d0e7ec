import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapAnalyticsService } from '@mapi/analytics-feature';

runMain('analytics', bootstrapAnalyticsService);
