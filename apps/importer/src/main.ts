import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapImporterService } from '@mapi/importer-feature';

runMain('importer', bootstrapImporterService);
