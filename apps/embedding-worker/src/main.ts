import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapEmbeddingWorker } from '@mapi/knowledge-base-feature';

runMain('embedding-worker', bootstrapEmbeddingWorker);
