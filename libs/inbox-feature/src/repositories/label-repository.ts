import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@mapi/db';

/** A stored label, as `inbox_labels` holds it. */
export interface LabelRow {
  label_id: string;
  org_id: string;
  name: string;
  color: string;
  type: string;
  created_at: Date;
}

/** The organization's label catalogue. The organization is part of every signature. */
export class LabelRepository {
  constructor(private readonly prisma: PrismaClient) {}

  list(orgId: string, type: string | undefined, offset: number, limit: number): Promise<LabelRow[]> {
    return this.prisma.inboxLabel.findMany({
      where: { org_id: orgId, ...(type ? { type } : {}) },
      orderBy: [{ type: 'asc' }, { name: 'asc' }],
      skip: offset,
      take: limit,
    });
  }

  /** The label of that name and type, created (with the colour given) when the organization has none. */
  async create(orgId: string, type: string, name: string, color: string): Promise<LabelRow> {
    const [row] = await this.ensure(orgId, type, [name], color);
    return row;
  }

  /**
   * The labels of these (lower-case) names and type, those missing created in one statement: a name
   * created by a concurrent request is answered as that request made it (the unique key decides).
   */
  async ensure(orgId: string, type: string, names: string[], color: string): Promise<LabelRow[]> {
    if (!names.length) return [];
    await this.prisma.$executeRaw`
      INSERT INTO inbox_labels (label_id, org_id, name, color, type)
      SELECT n.id::uuid, ${orgId}::uuid, n.name, ${color}, ${type}
      FROM unnest(${names.map(() => randomUUID())}::text[], ${names}::text[]) AS n(id, name)
      ORDER BY n.name
      ON CONFLICT (org_id, type, name) DO NOTHING`;
    const rows = await this.prisma.inboxLabel.findMany({ where: { org_id: orgId, type, name: { in: names } } });
    const byName = new Map(rows.map((r) => [r.name, r]));
    return names.flatMap((n) => byName.get(n) ?? []);
  }
}
