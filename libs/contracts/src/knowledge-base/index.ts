import type { RouteContract } from '../http/define-route';
import { CreateDocumentRoute } from './create-document/create-document.contract';
import { CreateFaqRoute } from './create-faq/create-faq.contract';
import { DeleteDocumentRoute } from './delete-document/delete-document.contract';
import { DeleteFaqRoute } from './delete-faq/delete-faq.contract';
import { GetDocumentRoute } from './get-document/get-document.contract';
import { GetFaqRoute } from './get-faq/get-faq.contract';
import { ListKbEntriesRoute } from './list-entries/list-entries.contract';
import { SearchKbRoute } from './search/search.contract';
import { UpdateFaqRoute } from './update-faq/update-faq.contract';

export * from './entry/kb-entry.schema';
export * from './entry/attachment-input.schema';
export * from './create-faq/create-faq.contract';
export * from './get-faq/get-faq.contract';
export * from './update-faq/update-faq.contract';
export * from './delete-faq/delete-faq.contract';
export * from './list-entries/list-entries.contract';
export * from './create-document/create-document.contract';
export * from './get-document/get-document.contract';
export * from './delete-document/delete-document.contract';
export * from './search/search.contract';
export * from './import-entries/import-entries.contract';

/** The knowledge-base service's public routes and messages: one folder per message (<name>/<name>.contract.ts). */
export const KNOWLEDGE_BASE_ROUTES: readonly RouteContract[] = [
  CreateFaqRoute,
  GetFaqRoute,
  UpdateFaqRoute,
  DeleteFaqRoute,
  ListKbEntriesRoute,
  CreateDocumentRoute,
  GetDocumentRoute,
  DeleteDocumentRoute,
  SearchKbRoute,
];
