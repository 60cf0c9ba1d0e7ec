import type { PrismaClient } from '@mapi/db';

/** Source ids that could not be kept, per organization and source, and each chat's history mark. */
export class IdMapRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async load(orgId: string, source: string, resource: string): Promise<Map<string, string>> {
    const rows = await this.prisma.importIdMap.findMany({
      where: { org_id: orgId, source, resource },
      select: { source_id: true, target_id: true },
    });
    return new Map(rows.map((r) => [r.source_id, r.target_id]));
  }

  async record(
    orgId: string,
    source: string,
    importId: string,
    resource: string,
    pairs: readonly { source_id: string; target_id: string }[],
  ): Promise<void> {
    if (!pairs.length) return;
    await this.prisma.$transaction(
      pairs.map((p) =>
        this.prisma.importIdMap.upsert({
          where: { org_id_source_resource_source_id: { org_id: orgId, source, resource, source_id: p.source_id } },
          create: { org_id: orgId, source, resource, source_id: p.source_id, target_id: p.target_id, import_id: importId },
          update: { target_id: p.target_id },
        }),
      ),
    );
  }

  /** Whether the source had each of these switched on (webhooks, workflows: imported switched off). */
  async recordSwitches(
    orgId: string,
    source: string,
    resource: string,
    switches: readonly { source_id: string; on: boolean }[],
  ): Promise<void> {
    if (!switches.length) return;
    await this.prisma.$executeRaw`
      UPDATE import_id_map m SET on_at_source = x.on
      FROM jsonb_to_recordset(${JSON.stringify(switches)}::jsonb) AS x(source_id text, "on" boolean)
      WHERE m.org_id = ${orgId}::uuid AND m.source = ${source} AND m.resource = ${resource} AND m.source_id = x.source_id`;
  }

  /** What the cut-over switches on: records the source had on and that are not switched on here yet. */
  toSwitchOn(orgId: string, source: string) {
    return this.prisma.importIdMap.findMany({
      where: { org_id: orgId, source, on_at_source: true, switched_on_at: null },
      select: { resource: true, source_id: true, target_id: true },
      orderBy: [{ resource: 'asc' }, { source_id: 'asc' }],
    });
  }

  async switchedOn(orgId: string, source: string, resource: string, sourceId: string): Promise<void> {
    await this.prisma.importIdMap.updateMany({
      where: { org_id: orgId, source, resource, source_id: sourceId },
      data: { switched_on_at: new Date() },
    });
  }

  /** The ids of a source that were not kept (target differs from source), a page of them. */
  async changedPage(orgId: string, source: string, offset: number, limit: number) {
    const count = await this.prisma.$queryRaw<
      { n: bigint }[]
    >`SELECT count(*) AS n FROM import_id_map WHERE org_id = ${orgId}::uuid AND source = ${source} AND target_id <> source_id`;
    const entries = await this.prisma.$queryRaw<{ resource: string; source_id: string; target_id: string }[]>`
      SELECT resource, source_id, target_id FROM import_id_map
      WHERE org_id = ${orgId}::uuid AND source = ${source} AND target_id <> source_id
      ORDER BY resource, source_id OFFSET ${offset} LIMIT ${limit}`;
    return { count: Number(count[0].n), entries };
  }

  async marks(orgId: string, source: string): Promise<Map<string, number>> {
    const rows = await this.prisma.importChatMark.findMany({
      where: { org_id: orgId, source },
      select: { chat_id: true, latest_ms: true },
    });
    return new Map(rows.map((r) => [r.chat_id, Number(r.latest_ms)]));
  }

  async mark(orgId: string, source: string, chatId: string, latestMs: number): Promise<void> {
    const key = { org_id: orgId, source, chat_id: chatId };
    await this.prisma.importChatMark.upsert({
      where: { org_id_source_chat_id: key },
      create: { ...key, latest_ms: BigInt(latestMs) },
      update: { latest_ms: BigInt(latestMs), updated_at: new Date() },
    });
  }
}
