import type { PrismaClient } from '@mapi/db';

export interface AgentSwitchRow {
  org_id: string;
  phone_id: string;
  enabled: boolean;
  updated_at: Date;
  updated_by: string;
}

/** The AI agent's per-phone switches (automation_agent_switches); every query names the organization. */
export class AgentSwitchRepository {
  constructor(private readonly prisma: PrismaClient) {}

  find(orgId: string, phoneId: string): Promise<AgentSwitchRow | null> {
    return this.prisma.automationAgentSwitch.findUnique({ where: { org_id_phone_id: { org_id: orgId, phone_id: phoneId } } });
  }

  /** No row: on (the switch turns the agent off, the workflow turns it on). */
  async enabled(orgId: string, phoneId: string): Promise<boolean> {
    return (await this.find(orgId, phoneId))?.enabled ?? true;
  }

  set(orgId: string, phoneId: string, enabled: boolean, by: string): Promise<AgentSwitchRow> {
    const data = { enabled, updated_by: by, updated_at: new Date() };
    return this.prisma.automationAgentSwitch.upsert({
      where: { org_id_phone_id: { org_id: orgId, phone_id: phoneId } },
      create: { org_id: orgId, phone_id: phoneId, ...data },
      update: data,
    });
  }
}
