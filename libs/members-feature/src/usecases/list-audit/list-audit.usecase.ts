import type { AuditEntry, ListAuditRequest } from '@mapi/contracts';
import { requireManager } from '../../access';
import type { AuditRepository } from '../../repositories/audit-repository';

/** GET /members/audit: the organization's audit trail, newest first (owners and admins). */
export class ListAudit {
  constructor(private readonly audit: AuditRepository) {}

  async execute({ ctx, query }: ListAuditRequest): Promise<{ entries: AuditEntry[]; count: number }> {
    requireManager(ctx);
    return this.audit.page(ctx.org_id, query.offset, query.limit);
  }
}
