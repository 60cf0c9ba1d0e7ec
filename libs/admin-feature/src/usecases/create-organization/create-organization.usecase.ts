import type { PrismaClient } from '@mapi/db';
import { AdminError } from '../../admin-error';
import { requireName } from '../../shared/validation';

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface CreateOrganizationCommand {
  name: string;
  /** Default: pro (API access needs an active pro or enterprise plan, spec part 5). */
  plan?: string;
  /** Requests per second per token; omitted: the gateway's configured default. */
  rateLimitPerSecond?: number;
}

export interface OrganizationView {
  id: string;
  name: string;
  plan: string;
  plan_active: boolean;
  rate_limit_per_second: number | null;
  created_at: Date;
}

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** Creates an organization with an active plan. */
export class CreateOrganization {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(command: CreateOrganizationCommand): Promise<OrganizationView> {
    const name = requireName(command.name, 'organization name');
    const plan = (command.plan ?? 'pro').trim().toLowerCase();
    if (!isPlan(plan)) throw new AdminError(`plan "${command.plan}" is not one of ${PLANS.join(', ')}`);
    const rate = command.rateLimitPerSecond;
    if (rate !== undefined && (!Number.isInteger(rate) || rate < 1 || rate > 1_000_000)) {
      throw new AdminError(`rate limit must be a whole number of requests per second between 1 and 1000000, got ${rate}`);
    }
    const org = await this.prisma.organization.create({
      data: { name, plan, plan_active: true, rate_limit_per_second: rate ?? null },
    });
    return {
      id: org.id,
      name: org.name,
      plan: org.plan,
      plan_active: org.plan_active,
      rate_limit_per_second: org.rate_limit_per_second,
      created_at: org.created_at,
    };
  }
}
