import { randomUUID } from 'node:crypto';
import type { FlagRuleCreateBody, FlagRuleUpdateBody } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import type { FlagRuleRow } from './flag-rule-row';

type Db = PrismaClient | Prisma.TransactionClient;

/** Flag rules (analytics_flag_rules): every query keyed by organization. */
export class FlagRuleRepository {
  constructor(private readonly db: Db) {}

  list(orgId: string): Promise<FlagRuleRow[]> {
    return this.db.analyticsFlagRule.findMany({ where: { org_id: orgId }, orderBy: [{ created_at: 'asc' }, { rule_id: 'asc' }] });
  }

  count(orgId: string): Promise<number> {
    return this.db.analyticsFlagRule.count({ where: { org_id: orgId } });
  }

  get(orgId: string, ruleId: string): Promise<FlagRuleRow | null> {
    return this.db.analyticsFlagRule.findFirst({ where: { org_id: orgId, rule_id: ruleId } });
  }

  /** The enabled rules of several organizations (the flagging intake's batch). */
  enabledOf(orgIds: string[]): Promise<FlagRuleRow[]> {
    return orgIds.length ? this.db.analyticsFlagRule.findMany({ where: { org_id: { in: orgIds }, enabled: true } }) : Promise.resolve([]);
  }

  create(orgId: string, body: FlagRuleCreateBody): Promise<FlagRuleRow> {
    const now = new Date();
    return this.db.analyticsFlagRule.create({
      data: {
        rule_id: randomUUID(),
        org_id: orgId,
        name: body.name,
        kind: body.kind,
        keywords: body.keywords ?? [],
        label_id: body.label_id ?? null,
        minutes: body.minutes ?? null,
        prompt: body.prompt ?? null,
        phone_id: body.phone_id ?? null,
        enabled: body.enabled,
        created_at: now,
        updated_at: now,
      },
    });
  }

  /**
   * Changes a rule (of orgId); disabled, or moved to another phone, its pending flag jobs are dropped, so
   * none of them flags afterwards. Null: no such rule (also when it was deleted meanwhile).
   */
  async update(orgId: string, ruleId: string, body: FlagRuleUpdateBody): Promise<FlagRuleRow | null> {
    const before = await this.get(orgId, ruleId);
    if (!before) return null;
    const { count } = await this.db.analyticsFlagRule.updateMany({
      where: { org_id: orgId, rule_id: ruleId },
      data: { ...body, updated_at: new Date() },
    });
    const after = count ? await this.get(orgId, ruleId) : null;
    if (!after) return null;
    if (!after.enabled || before.phone_id !== after.phone_id) await this.dropPending(orgId, ruleId);
    return after;
  }

  /** Deletes a rule (of orgId) and its pending jobs; its done jobs stay as the record of what it flagged. */
  async delete(orgId: string, ruleId: string): Promise<FlagRuleRow | null> {
    const row = await this.get(orgId, ruleId);
    if (!row) return null;
    await this.db.analyticsFlagRule.deleteMany({ where: { org_id: orgId, rule_id: ruleId } });
    await this.dropPending(orgId, ruleId);
    return row;
  }

  private dropPending(orgId: string, ruleId: string) {
    return this.db.analyticsFlagJob.deleteMany({ where: { org_id: orgId, rule_id: ruleId, state: 'pending' } });
  }
}
