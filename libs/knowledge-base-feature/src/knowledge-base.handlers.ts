import {
  CreateDocumentRpc,
  CreateFaqRpc,
  DeleteDocumentRpc,
  DeleteFaqRpc,
  GetDocumentRpc,
  GetFaqRpc,
  ListKbEntriesRpc,
  SearchKbRpc,
  UpdateFaqRpc,
} from '@mapi/contracts';
import { ImportDocumentsRpc, ImportFaqsRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { rpcHandler, type Logger } from '@mapi/platform';
import { KbImportRepository } from './repositories/kb-import-repository';
import { ImportKbEntries } from './usecases/import-entries/import-entries.usecase';
import type { MediaAttachmentStore } from './attachments/attachment-store';
import type { KnowledgeBaseConfig } from './config';
import type { EmbeddingProvider } from './embedding/embedding-provider';
import type { KbEntryRepository } from './repositories/kb-entry-repository';
import type { EmbeddingQueue } from './jobs/embedding-queue';
import { CreateDocument } from './usecases/create-document/create-document.usecase';
import { CreateFaq } from './usecases/create-faq/create-faq.usecase';
import { DeleteDocument } from './usecases/delete-document/delete-document.usecase';
import { DeleteFaq } from './usecases/delete-faq/delete-faq.usecase';
import { GetDocument } from './usecases/get-document/get-document.usecase';
import { GetFaq } from './usecases/get-faq/get-faq.usecase';
import { ListKbEntries } from './usecases/list-entries/list-entries.usecase';
import { SearchKbEntries, type OwnIndexSearch } from './usecases/search-entries/search-entries.usecase';
import { UpdateFaq } from './usecases/update-faq/update-faq.usecase';

export interface KnowledgeBaseDeps {
  entries: KbEntryRepository;
  /** The service's Prisma client (the importer's writes use it directly). */
  prisma: PrismaClient;
  /** Searches of organizations with their own HNSW index (absent: every search uses `entries`). */
  ownIndex?: OwnIndexSearch;
  store: MediaAttachmentStore;
  queue: EmbeddingQueue;
  provider: EmbeddingProvider;
  kb: KnowledgeBaseConfig;
  logger: Logger;
}

const serve = rpcHandler<KnowledgeBaseDeps>();
const fetchLimits = ({ kb }: KnowledgeBaseDeps) => ({
  maxBytes: kb.KB_DOCUMENT_MAX_BYTES,
  timeoutMs: kb.KB_FETCH_TIMEOUT_MS,
  allowPrivate: kb.KB_FETCH_ALLOW_PRIVATE,
  maxChunks: kb.KB_DOCUMENT_MAX_CHUNKS,
});

/** What the knowledge-base service answers: one line per operation, its contract and its use case. */
export const KNOWLEDGE_BASE_HANDLERS = [
  serve(
    CreateFaqRpc,
    (d) => new CreateFaq(d.entries, d.store, d.kb.KB_ATTACHMENT_MAX_BYTES, d.queue, d.kb.KB_CREATE_WAIT_FOR_EMBEDDING_MS, d.logger),
  ),
  serve(GetFaqRpc, (d) => new GetFaq(d.entries)),
  serve(
    UpdateFaqRpc,
    (d) => new UpdateFaq(d.entries, d.store, d.kb.KB_ATTACHMENT_MAX_BYTES, d.queue, d.kb.KB_CREATE_WAIT_FOR_EMBEDDING_MS, d.logger),
  ),
  serve(DeleteFaqRpc, (d) => new DeleteFaq(d.entries, d.store, d.logger)),
  serve(ListKbEntriesRpc, (d) => new ListKbEntries(d.entries)),
  serve(CreateDocumentRpc, (d) => new CreateDocument(d.entries, d.store, d.queue, fetchLimits(d), d.logger)),
  serve(GetDocumentRpc, (d) => new GetDocument(d.entries)),
  serve(DeleteDocumentRpc, (d) => new DeleteDocument(d.entries, d.store, d.logger)),
  serve(SearchKbRpc, (d) => new SearchKbEntries(d.entries, d.provider, d.ownIndex)),
  // the importer's writes (docs/services/imports.md)
  serve(ImportFaqsRpc, (d) => new ImportKbEntries(new KbImportRepository(d.prisma), d.queue, 'faq')),
  serve(ImportDocumentsRpc, (d) => new ImportKbEntries(new KbImportRepository(d.prisma), d.queue, 'document')),
];
