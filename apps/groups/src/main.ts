import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapGroupsService } from '@mapi/groups-feature';

runMain('groups', bootstrapGroupsService);
