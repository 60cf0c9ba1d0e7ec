import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrapKnowledgeBaseService } from '@mapi/knowledge-base-feature';

runMain('knowledge-base', bootstrapKnowledgeBaseService);
