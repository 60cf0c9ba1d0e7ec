import type { PrismaClient } from '@mapi/db';

export interface FailureIn {
  resource: string;
  source_id: string;
  reason: string;
}

/** Records of the source an import could not bring, with why. */
export class FailureRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async record(orgId: string, importId: string, failures: readonly FailureIn[]): Promise<void> {
    if (!failures.length) return;
    await this.prisma.importFailure.createMany({
      data: failures.map((f) => ({
        org_id: orgId,
        import_id: importId,
        resource: f.resource,
        source_id: f.source_id.slice(0, 300),
        reason: f.reason.slice(0, 1000),
      })),
      skipDuplicates: true,
    });
  }

  async page(orgId: string, importId: string, offset: number, limit: number) {
    const where = { org_id: orgId, import_id: importId };
    const [count, failures] = await Promise.all([
      this.prisma.importFailure.count({ where }),
      this.prisma.importFailure.findMany({
        where,
        orderBy: [{ at: 'asc' }, { resource: 'asc' }, { source_id: 'asc' }],
        skip: offset,
        take: limit,
      }),
    ]);
    return { count, failures };
  }
}
