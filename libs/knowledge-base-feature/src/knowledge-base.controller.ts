import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
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
  type CreateDocumentRequest,
  type CreateFaqRequest,
  type DeleteDocumentRequest,
  type DeleteFaqRequest,
  type GetDocumentRequest,
  type GetFaqRequest,
  type ListKbEntriesRequest,
  type SearchKbRequest,
  type UpdateFaqRequest,
} from '@mapi/contracts';
import { CreateDocument } from './usecases/create-document/create-document.usecase';
import { CreateFaq } from './usecases/create-faq/create-faq.usecase';
import { DeleteDocument } from './usecases/delete-document/delete-document.usecase';
import { DeleteFaq } from './usecases/delete-faq/delete-faq.usecase';
import { GetDocument } from './usecases/get-document/get-document.usecase';
import { GetFaq } from './usecases/get-faq/get-faq.usecase';
import { ListKbEntries } from './usecases/list-entries/list-entries.usecase';
import { SearchKbEntries } from './usecases/search-entries/search-entries.usecase';
import { UpdateFaq } from './usecases/update-faq/update-faq.usecase';

/** NATS handlers of the knowledge-base service; requests arrive validated against their contracts. */
@Controller()
export class KnowledgeBaseController {
  constructor(
    @Inject(CreateFaq) private readonly createFaq: CreateFaq,
    @Inject(GetFaq) private readonly getFaq: GetFaq,
    @Inject(UpdateFaq) private readonly updateFaq: UpdateFaq,
    @Inject(DeleteFaq) private readonly deleteFaq: DeleteFaq,
    @Inject(ListKbEntries) private readonly listEntries: ListKbEntries,
    @Inject(CreateDocument) private readonly createDocument: CreateDocument,
    @Inject(GetDocument) private readonly getDocument: GetDocument,
    @Inject(DeleteDocument) private readonly deleteDocument: DeleteDocument,
    @Inject(SearchKbEntries) private readonly searchEntries: SearchKbEntries,
  ) {}

  @MessagePattern(CreateFaqRpc.subject)
  create(request: CreateFaqRequest) {
    return this.createFaq.execute(request);
  }

  @MessagePattern(GetFaqRpc.subject)
  get(request: GetFaqRequest) {
    return this.getFaq.execute(request);
  }

  @MessagePattern(UpdateFaqRpc.subject)
  update(request: UpdateFaqRequest) {
    return this.updateFaq.execute(request);
  }

  @MessagePattern(DeleteFaqRpc.subject)
  delete(request: DeleteFaqRequest) {
    return this.deleteFaq.execute(request);
  }

  @MessagePattern(ListKbEntriesRpc.subject)
  list(request: ListKbEntriesRequest) {
    return this.listEntries.execute(request);
  }

  @MessagePattern(CreateDocumentRpc.subject)
  createDoc(request: CreateDocumentRequest) {
    return this.createDocument.execute(request);
  }

  @MessagePattern(GetDocumentRpc.subject)
  getDoc(request: GetDocumentRequest) {
    return this.getDocument.execute(request);
  }

  @MessagePattern(DeleteDocumentRpc.subject)
  deleteDoc(request: DeleteDocumentRequest) {
    return this.deleteDocument.execute(request);
  }

  @MessagePattern(SearchKbRpc.subject)
  search(request: SearchKbRequest) {
    return this.searchEntries.execute(request);
  }
}
