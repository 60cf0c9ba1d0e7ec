import type { RecordAuditRequest } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { AuditRepository } from '../../repositories/audit-repository';

/** members.v1.audit.record (internal): an entry written for another process, e.g. the gateway after DELETE /phones/delete. */
export class RecordAudit {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly audit: AuditRepository,
  ) {}

  async execute({ body }: RecordAuditRequest): Promise<{ audit_id: string }> {
    const { org_id, ...entry } = body;
    return { audit_id: await this.audit.record(this.prisma, org_id, entry) };
  }
}
