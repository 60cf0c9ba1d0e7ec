import type { Prisma, PrismaClient } from '@mapi/db';
import type { SubscriptionRow } from './map-subscription';

export interface SubscriptionFilter {
  integration_name?: string;
  is_subscribed?: boolean;
  integration_id?: string;
  hook_url?: string;
  type?: string;
}

export type NewSubscription = Omit<Prisma.WebhookSubscriptionUncheckedCreateInput, 'org_id'>;
export type SubscriptionChanges = Prisma.WebhookSubscriptionUncheckedUpdateInput;

/** Subscriptions of one organization: the organization is the first argument of every method. */
export class SubscriptionRepository {
  constructor(private readonly prisma: PrismaClient) {}

  list(orgId: string, filter: SubscriptionFilter): Promise<SubscriptionRow[]> {
    return this.prisma.webhookSubscription.findMany({
      where: { org_id: orgId, ...filter },
      orderBy: [{ created_at: 'asc' }, { id: 'asc' }],
    });
  }

  find(orgId: string, id: string): Promise<SubscriptionRow | null> {
    return this.prisma.webhookSubscription.findFirst({ where: { org_id: orgId, id } });
  }

  async createMany(orgId: string, rows: NewSubscription[]): Promise<SubscriptionRow[]> {
    return this.prisma.$transaction(rows.map((r) => this.prisma.webhookSubscription.create({ data: { ...r, org_id: orgId } })));
  }

  /** Null when the organization has no such subscription. */
  async update(orgId: string, id: string, changes: SubscriptionChanges): Promise<SubscriptionRow | null> {
    const { count } = await this.prisma.webhookSubscription.updateMany({ where: { org_id: orgId, id }, data: { ...changes, updated_at: new Date() } });
    return count ? this.find(orgId, id) : null;
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    const { count } = await this.prisma.webhookSubscription.deleteMany({ where: { org_id: orgId, id } });
    return count > 0;
  }
}
