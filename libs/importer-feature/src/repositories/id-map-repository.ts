import type { PrismaClient } from '@mapi/db';

/** Source ids that could not be kept, per organization and source, and each chat's history mark. */
export class IdMapRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async load(orgId: string, source: string, resource: string): Promise<Map<string, string>> {
    const rows = await this.prisma.importIdMap.findMany({ where: { org_id: orgId, source, resource }, select: { source_id: true, target_id: true } });
    return new Map(rows.map((r) => [r.source_id, r.target_id]));
  }

  async record(orgId: string, source: string, importId: string, resource: string, pairs: readonly { source_id: string; target_id: string }[]): Promise<void> {
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

  /** The ids of a source that were not kept (target differs from source), a page of them. */
  async changedPage(orgId: string, source: string, offset: number, limit: number) {
    const count = await this.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM import_id_map WHERE org_id = ${orgId}::uuid AND source = ${source} AND target_id <> source_id`;
    const entries = await this.prisma.$queryRaw<{ resource: string; source_id: string; target_id: string }[]>`
      SELECT resource, source_id, target_id FROM import_id_map
      WHERE org_id = ${orgId}::uuid AND source = ${source} AND target_id <> source_id
      ORDER BY resource, source_id OFFSET ${offset} LIMIT ${limit}`;
    return { count: Number(count[0].n), entries };
  }

  async marks(orgId: string, source: string): Promise<Map<string, number>> {
    const rows = await this.prisma.importChatMark.findMany({ where: { org_id: orgId, source }, select: { chat_id: true, latest_ms: true } });
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
