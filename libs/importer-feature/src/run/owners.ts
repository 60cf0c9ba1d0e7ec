import {
  ImportChatsRpc,
  ImportContactsRpc,
  ImportCustomPropertiesRpc,
  ImportDocumentsRpc,
  ImportFaqsRpc,
  ImportLabelsRpc,
  ImportMessagesRpc,
  ImportNotesRpc,
  ImportPhonesRpc,
  ImportReactionsRpc,
  ImportSubscriptionsRpc,
  ImportTasksRpc,
  ImportTicketsRpc,
  ImportWorkflowsRpc,
  MAX_IMPORT_BATCH,
  ServiceError,
  type ImportBatchResponse,
  type ImportItemResult,
  type RequestContext,
} from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';

/** The owning services' import RPCs (libs/contracts/src/<service>/import-*), by the resource they write. */
export const OWNER_RPCS = {
  phones: ImportPhonesRpc,
  labels: ImportLabelsRpc,
  custom_properties: ImportCustomPropertiesRpc,
  contacts: ImportContactsRpc,
  chats: ImportChatsRpc,
  messages: ImportMessagesRpc,
  reactions: ImportReactionsRpc,
  tickets: ImportTicketsRpc,
  notes: ImportNotesRpc,
  tasks: ImportTasksRpc,
  faqs: ImportFaqsRpc,
  documents: ImportDocumentsRpc,
  webhooks: ImportSubscriptionsRpc,
  workflows: ImportWorkflowsRpc,
} as const;
export type OwnedResource = keyof typeof OWNER_RPCS;

/** An item as every owner takes it: the source id, the id an earlier run gave it, and the object's fields. */
export type OwnerItem = { source_id: string; target_id?: string } & Record<string, unknown>;

/** Sends batches to an owner's import RPC in the target organization's name. */
export class Owners {
  constructor(
    private readonly rpc: NatsRpcClient,
    private readonly ctx: RequestContext,
    private readonly timeoutMs = 120_000,
    /** Tries of one batch while its owner is briefly unavailable, and the first wait (doubling, at most 10 s): about 30 s in all. */
    private readonly retry = { attempts: 7, firstMs: 500 },
  ) {}

  async write(resource: OwnedResource, items: readonly OwnerItem[]): Promise<ImportItemResult[]> {
    const results: ImportItemResult[] = [];
    for (let i = 0; i < items.length; i += MAX_IMPORT_BATCH) {
      const batch = items.slice(i, i + MAX_IMPORT_BATCH);
      results.push(...(await this.writeBatch(resource, batch)).results);
    }
    return results;
  }

  /**
   * One batch; an owner that is briefly unavailable (503: restarting, its database away; 504) is
   * asked again with back-off, as the batch is idempotent. Any other refusal stops the run.
   */
  private async writeBatch(resource: OwnedResource, batch: OwnerItem[]): Promise<ImportBatchResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.rpc.call(OWNER_RPCS[resource], { ctx: this.ctx, body: { items: batch } }, { timeoutMs: this.timeoutMs });
      } catch (error) {
        const passing = error instanceof ServiceError && (error.status === 503 || error.status === 504);
        if (!passing || attempt >= this.retry.attempts - 1) throw error;
        await new Promise((r) => setTimeout(r, Math.min(10_000, this.retry.firstMs * 2 ** attempt)));
      }
    }
  }
}
