import type { AuditEntry } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { randomUUID } from 'node:crypto';
import type { Db } from './member-repository';

export interface AuditInput {
  actor_type: 'member' | 'token' | 'operator';
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  details?: Record<string, unknown>;
}

/** The organization's audit trail: append-only, read newest first. */
export class AuditRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** One entry, in the given transaction (undefined: on its own). */
  async record(db: Db | undefined, orgId: string, entry: AuditInput): Promise<string> {
    const audit_id = randomUUID();
    await (db ?? this.prisma).memberAuditEntry.create({
      data: { audit_id, org_id: orgId, ...entry, details: (entry.details ?? {}) as Prisma.InputJsonValue },
    });
    return audit_id;
  }

  async page(orgId: string, offset: number, limit: number): Promise<{ entries: AuditEntry[]; count: number }> {
    const [rows, count] = await Promise.all([
      this.prisma.memberAuditEntry.findMany({
        where: { org_id: orgId },
        orderBy: [{ created_at: 'desc' }, { audit_id: 'desc' }],
        skip: offset,
        take: limit,
      }),
      this.prisma.memberAuditEntry.count({ where: { org_id: orgId } }),
    ]);
    return {
      count,
      entries: rows.map((r) => ({
        audit_id: r.audit_id,
        org_id: r.org_id,
        actor_type: r.actor_type as AuditEntry['actor_type'],
        actor_id: r.actor_id,
        actor_email: r.actor_email,
        action: r.action,
        target: r.target,
        details: (r.details ?? {}) as Record<string, unknown>,
        created_at: r.created_at.toISOString(),
      })),
    };
  }
}
