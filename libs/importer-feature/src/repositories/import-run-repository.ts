import type { Prisma, PrismaClient } from '@mapi/db';

export type ImportRunRow = Awaited<ReturnType<PrismaClient['importRun']['findFirstOrThrow']>>;

/** A run's lease: renewed while a replica works on it; past it, the run was interrupted. */
export const LEASE_MS = 15_000;

/** The importer's runs, organization first. */
export class ImportRunRepository {
  constructor(private readonly prisma: PrismaClient) {}

  find(orgId: string, importId: string): Promise<ImportRunRow | null> {
    return this.prisma.importRun.findFirst({ where: { org_id: orgId, import_id: importId } });
  }

  list(orgId: string, take: number): Promise<ImportRunRow[]> {
    return this.prisma.importRun.findMany({ where: { org_id: orgId }, orderBy: [{ created_at: 'desc' }, { import_id: 'desc' }], take });
  }

  /** The newest unfinished run of this organization from this source (to join or resume). */
  findUnfinished(orgId: string, sourceUrl: string): Promise<ImportRunRow | null> {
    return this.prisma.importRun.findFirst({
      where: { org_id: orgId, source_url: sourceUrl, status: { in: ['queued', 'running', 'failed'] }, finished_at: null },
      orderBy: { created_at: 'desc' },
    });
  }

  create(data: Prisma.ImportRunUncheckedCreateInput): Promise<ImportRunRow> {
    return this.prisma.importRun.create({ data });
  }

  /** Takes the run for this replica when nobody holds its lease; false when another replica does. */
  async claim(orgId: string, importId: string): Promise<boolean> {
    const now = new Date();
    const { count } = await this.prisma.importRun.updateMany({
      where: { org_id: orgId, import_id: importId, OR: [{ lease_until: null }, { lease_until: { lt: now } }] },
      data: {
        status: 'running',
        lease_until: new Date(now.getTime() + LEASE_MS),
        updated_at: now,
        error: null as unknown as Prisma.InputJsonValue,
      },
    });
    return count === 1;
  }

  save(orgId: string, importId: string, data: Prisma.ImportRunUncheckedUpdateManyInput): Promise<unknown> {
    return this.prisma.importRun.updateMany({ where: { org_id: orgId, import_id: importId }, data: { ...data, updated_at: new Date() } });
  }
}
