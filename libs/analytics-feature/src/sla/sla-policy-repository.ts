import { randomUUID } from 'node:crypto';
import type { SlaPolicyCreateBody, SlaPolicyUpdateBody } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { SlaPolicyRow } from './map-sla-policy';

type Db = PrismaClient | Prisma.TransactionClient;

/** SLA policies (analytics_sla_policies): every query keyed by organization. */
export class SlaPolicyRepository {
  constructor(private readonly db: Db) {}

  list(orgId: string): Promise<SlaPolicyRow[]> {
    return this.db.analyticsSlaPolicy.findMany({ where: { org_id: orgId }, orderBy: [{ created_at: 'asc' }, { policy_id: 'asc' }] });
  }

  count(orgId: string): Promise<number> {
    return this.db.analyticsSlaPolicy.count({ where: { org_id: orgId } });
  }

  get(orgId: string, policyId: string): Promise<SlaPolicyRow | null> {
    return this.db.analyticsSlaPolicy.findFirst({ where: { org_id: orgId, policy_id: policyId } });
  }

  /** The enabled policies of several organizations (the SLA intake's batch). */
  enabledOf(orgIds: string[]): Promise<SlaPolicyRow[]> {
    return orgIds.length ? this.db.analyticsSlaPolicy.findMany({ where: { org_id: { in: orgIds }, enabled: true } }) : Promise.resolve([]);
  }

  create(orgId: string, body: SlaPolicyCreateBody): Promise<SlaPolicyRow> {
    const now = new Date();
    return this.db.analyticsSlaPolicy.create({
      data: {
        policy_id: randomUUID(),
        org_id: orgId,
        name: body.name,
        kind: body.kind,
        minutes: body.minutes,
        label_id: body.label_id ?? null,
        phone_id: body.phone_id ?? null,
        enabled: body.enabled,
        created_at: now,
        updated_at: now,
      },
    });
  }

  /**
   * Changes a policy (of orgId); when it stops applying as it did (disabled, or another kind, label or
   * phone) its open waits are dropped, so none of them fires afterwards. Null: no such policy.
   */
  async update(orgId: string, policyId: string, body: SlaPolicyUpdateBody): Promise<SlaPolicyRow | null> {
    const before = await this.get(orgId, policyId);
    if (!before) return null;
    // updateMany, not update: a DELETE of the policy between the read and this write is a 404, not
    // Prisma's "record not found" thrown as a 500 (the generated-input test sends both at once).
    const { count } = await this.db.analyticsSlaPolicy.updateMany({
      where: { org_id: orgId, policy_id: policyId },
      data: { ...body, updated_at: new Date() },
    });
    const after = count ? await this.get(orgId, policyId) : null;
    if (!after) return null;
    const changed = (['kind', 'label_id', 'phone_id'] as const).some((k) => before[k] !== after[k]);
    if (changed || !after.enabled) {
      await this.db.analyticsSlaTimer.deleteMany({ where: { org_id: orgId, policy_id: policyId, answered_at: null } });
    }
    return after;
  }

  /** Deletes a policy (of orgId) and, by the foreign key, its waits. */
  async delete(orgId: string, policyId: string): Promise<SlaPolicyRow | null> {
    const row = await this.get(orgId, policyId);
    if (!row) return null;
    await this.db.analyticsSlaPolicy.deleteMany({ where: { org_id: orgId, policy_id: policyId } });
    return row;
  }
}
