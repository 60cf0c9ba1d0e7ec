import { createHash, randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { EVENT_NAMES, type ImportBatchResponse, type ImportItemResult, type ImportSubscriptionsRequest } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { generateSecret } from '@mapi/platform';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Why an imported subscription is off until the cut-over (PATCH /webhooks/{id} isSubscribed true). */
export const IMPORTED_REASON = 'imported';

const derived = (orgId: string, sourceId: string) => {
  const h = createHash('sha256').update(`${orgId}/webhook/${sourceId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * webhooks.v1.import.subscriptions (the importer): subscriptions switched off and marked imported,
 * with a new secret; a later run updates the URL, name or metadata and never switches one on or off.
 */
export class ImportSubscriptions {
  constructor(private readonly prisma: PrismaClient) {}

  async execute({ ctx, body }: ImportSubscriptionsRequest): Promise<ImportBatchResponse> {
    const known = new Set<string>(EVENT_NAMES);
    const results: ImportItemResult[] = [];
    for (const raw of body.items) {
      const item = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
      const sourceId = typeof item.source_id === 'string' ? item.source_id : '';
      const name = typeof item.integration_name === 'string' ? item.integration_name : '';
      const hookUrl = typeof item.hook_url === 'string' ? item.hook_url : '';
      if (!sourceId || !known.has(name) || !/^https?:\/\//.test(hookUrl) || hookUrl.length > 2048) {
        results.push({
          source_id: sourceId,
          target_id: null,
          outcome: 'failed',
          reason: 'a subscription needs an event name of the catalogue and an http(s) hook_url',
        });
        continue;
      }
      results.push(
        await this.one(ctx.org_id, sourceId, typeof item.target_id === 'string' ? item.target_id : undefined, item, name, hookUrl),
      );
    }
    return { results };
  }

  private async one(
    orgId: string,
    sourceId: string,
    targetId: string | undefined,
    item: Record<string, unknown>,
    name: string,
    hookUrl: string,
  ): Promise<ImportItemResult> {
    const metadata = (
      item.integration_metadata && typeof item.integration_metadata === 'object' ? item.integration_metadata : {}
    ) as Prisma.InputJsonValue;
    const data = { integration_name: name, hook_url: hookUrl, integration_metadata: metadata };
    let id: string | null = null;
    for (const candidate of [targetId, sourceId, derived(orgId, sourceId)]) {
      if (!candidate || !UUID.test(candidate)) continue;
      const row = await this.prisma.webhookSubscription.findUnique({ where: { id: candidate } });
      if (row && row.org_id === orgId) {
        const same = row.integration_name === name && row.hook_url === hookUrl && isDeepStrictEqual(row.integration_metadata, metadata);
        if (!same) await this.prisma.webhookSubscription.update({ where: { id: row.id }, data: { ...data, updated_at: new Date() } });
        return { source_id: sourceId, target_id: row.id, outcome: same ? 'skipped' : 'updated' };
      }
      if (!row && id === null) id = candidate;
    }
    id ??= derived(orgId, sourceId);
    const integrationId = typeof item.integration_id === 'string' && UUID.test(item.integration_id) ? item.integration_id : randomUUID();
    await this.prisma.webhookSubscription.create({
      data: {
        ...data,
        id,
        org_id: orgId,
        integration_id: integrationId,
        integration_type: typeof item.integration_type === 'string' ? item.integration_type : 'webhook',
        type: typeof item.type === 'string' ? item.type : 'webhook',
        is_subscribed: false,
        disabled_reason: IMPORTED_REASON,
        secret: generateSecret(),
      },
    });
    return { source_id: sourceId, target_id: id, outcome: 'created' };
  }
}
