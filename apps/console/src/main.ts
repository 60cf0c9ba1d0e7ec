import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapConsole } from './server/bootstrap';

runMain('console', bootstrapConsole);
