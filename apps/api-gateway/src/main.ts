import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapGateway } from '@mapi/gateway-feature';

runMain('api-gateway', bootstrapGateway);
