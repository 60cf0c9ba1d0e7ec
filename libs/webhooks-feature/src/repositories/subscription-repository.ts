import type { Prisma, PrismaClient } from '@mapi/db';
import type { SubscriptionRow } from '../rows/subscription-row';

export interface SubscriptionFilter {
  integration_name?: string;
  is_subscribed?: boolean;
  integration_id?: string;
  hook_url?: string;
  type?: string;
  transport?: string;
}

export type NewSubscription = Omit<Prisma.WebhookSubscriptionUncheckedCreateInput, 'org_id'>;
export type SubscriptionChanges = Prisma.WebhookSubscriptionUncheckedUpdateInput;

/**
 * Subscriptions of one organization: the organization is the first argument of every method. `webhooks`
 * sees the HTTP ones only, `sinks` the others (issue 36): neither route reaches the other's rows.
 */
export class SubscriptionRepository {
  private readonly transport: Prisma.StringFilter;

  constructor(
    private readonly prisma: PrismaClient,
    readonly scope: 'webhooks' | 'sinks' = 'webhooks',
  ) {
    this.transport = scope === 'webhooks' ? { equals: 'http' } : { not: 'http' };
  }

  list(orgId: string, filter: SubscriptionFilter): Promise<SubscriptionRow[]> {
    return this.prisma.webhookSubscription.findMany({
      where: { org_id: orgId, transport: this.transport, ...filter },
      orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    });
  }

  find(orgId: string, id: string): Promise<SubscriptionRow | null> {
    return this.prisma.webhookSubscription.findFirst({ where: { org_id: orgId, id, transport: this.transport } });
  }

  async createMany(orgId: string, rows: NewSubscription[]): Promise<SubscriptionRow[]> {
    return this.prisma.$transaction(rows.map((r) => this.prisma.webhookSubscription.create({ data: { ...r, org_id: orgId } })));
  }

  /** Null when the organization has no such subscription. */
  async update(orgId: string, id: string, changes: SubscriptionChanges): Promise<SubscriptionRow | null> {
    const { count } = await this.prisma.webhookSubscription.updateMany({
      where: { org_id: orgId, id, transport: this.transport },
      data: { ...changes, updated_at: new Date() },
    });
    return count ? this.find(orgId, id) : null;
  }

  /**
   * Sets the sealed credentials (null: none) of `id` and of every subscription of its integration (the
   * sinks created together) whose URL is `hookUrl`: one broker, one copy of the credentials. Answers how many.
   */
  async setSharedCredentials(
    orgId: string,
    id: string,
    integrationId: string,
    hookUrl: string,
    credentials: Uint8Array<ArrayBuffer> | null,
  ): Promise<number> {
    const { count } = await this.prisma.webhookSubscription.updateMany({
      where: { org_id: orgId, transport: this.transport, integration_id: integrationId, OR: [{ id }, { hook_url: hookUrl }] },
      data: { credentials, updated_at: new Date() },
    });
    return count;
  }

  /**
   * Replaces the secret; the one replaced keeps signing (beside the new one) until `previousUntil`
   * (null: no overlap). One statement, so two rotations at once cannot lose the current secret.
   * Null when the organization has no such subscription.
   */
  async rotateSecret(orgId: string, id: string, secret: string, previousUntil: Date | null, now: Date): Promise<{ id: string } | null> {
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      UPDATE webhook_subscriptions SET
        previous_secret = CASE WHEN ${previousUntil}::timestamptz IS NULL THEN NULL ELSE secret END,
        previous_secret_expires_at = ${previousUntil}::timestamptz,
        secret = ${secret}, updated_at = ${now}
      WHERE org_id = ${orgId}::uuid AND id = ${id}::uuid AND (transport = 'http') = ${this.scope === 'webhooks'}
      RETURNING id::text`;
    return rows[0] ?? null;
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.webhookSubscription.deleteMany({ where: { org_id: orgId, id, transport: this.transport } });
    return count > 0;
  }
}
