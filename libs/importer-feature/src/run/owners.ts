import { ImportBatchResponse, MAX_IMPORT_BATCH, ServiceError, type ImportItemResult, type RequestContext, type RpcContract } from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';
import { z } from 'zod';

/** The owning services' import RPCs (libs/contracts/src/<service>/import-*), by subject. */
export const OWNER_SUBJECTS = {
  phones: ['phones.v1.import.phones', 'phones'],
  labels: ['inbox.v1.import.labels', 'inbox'],
  custom_properties: ['inbox.v1.import.custom-properties', 'inbox'],
  contacts: ['chats.v1.import.contacts', 'chats'],
  chats: ['chats.v1.import.chats', 'chats'],
  messages: ['chats.v1.import.messages', 'chats'],
  reactions: ['chats.v1.import.reactions', 'chats'],
  tickets: ['inbox.v1.import.tickets', 'inbox'],
  notes: ['inbox.v1.import.notes', 'inbox'],
  tasks: ['inbox.v1.import.tasks', 'inbox'],
  faqs: ['knowledge-base.v1.import.faqs', 'knowledge-base'],
  documents: ['knowledge-base.v1.import.documents', 'knowledge-base'],
  webhooks: ['webhooks.v1.import.subscriptions', 'webhooks'],
  workflows: ['automation.v1.import.workflows', 'automation'],
} as const;
export type OwnedResource = keyof typeof OWNER_SUBJECTS;

const contractOf = (resource: OwnedResource): RpcContract => ({
  subject: OWNER_SUBJECTS[resource][0],
  service: OWNER_SUBJECTS[resource][1],
  request: z.unknown(),
  response: ImportBatchResponse,
});

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

  async write(resource: OwnedResource, items: readonly OwnerItem[], extra: Record<string, unknown> = {}): Promise<ImportItemResult[]> {
    const results: ImportItemResult[] = [];
    for (let i = 0; i < items.length; i += MAX_IMPORT_BATCH) {
      const batch = items.slice(i, i + MAX_IMPORT_BATCH);
      results.push(...(await this.writeBatch(resource, batch, extra)).results);
    }
    return results;
  }

  /**
   * One batch; an owner that is briefly unavailable (503: restarting, its database away; 504) is
   * asked again with back-off, as the batch is idempotent. Any other refusal stops the run.
   */
  private async writeBatch(resource: OwnedResource, batch: readonly OwnerItem[], extra: Record<string, unknown>): Promise<ImportBatchResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        return (await this.rpc.call(contractOf(resource), { ctx: this.ctx, body: { ...extra, items: batch } } as never, { timeoutMs: this.timeoutMs })) as ImportBatchResponse;
      } catch (error) {
        const passing = error instanceof ServiceError && (error.status === 503 || error.status === 504);
        if (!passing || attempt >= this.retry.attempts - 1) throw error;
        await new Promise((r) => setTimeout(r, Math.min(10_000, this.retry.firstMs * 2 ** attempt)));
      }
    }
  }
}
