import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@mapi/db';
import { isDuplicateKey } from '../rows/pg-errors';

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

  find(orgId: string, labelId: string): Promise<LabelRow | null> {
    return this.prisma.inboxLabel.findFirst({ where: { org_id: orgId, label_id: labelId } });
  }

  /** Another label of the organization with that type and name, if any. */
  findByName(orgId: string, type: string, name: string): Promise<LabelRow | null> {
    return this.prisma.inboxLabel.findFirst({ where: { org_id: orgId, type, name } });
  }

  /**
   * Renames (and/or recolours) a label; a ticket label's name is replaced in the organization's tickets
   * in the same transaction (tickets keep names). 'missing' when there is no such label, 'name-taken'
   * when another label of its type has the name.
   */
  async update(orgId: string, labelId: string, changes: { name?: string; color?: string }): Promise<LabelRow | 'missing' | 'name-taken'> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const [before] = await tx.$queryRaw<LabelRow[]>`
          SELECT label_id::text, org_id::text, name, color, type, created_at FROM inbox_labels
          WHERE org_id = ${orgId}::uuid AND label_id = ${labelId}::uuid FOR UPDATE`;
        if (!before) return 'missing' as const;
        const after = await tx.inboxLabel.update({ where: { label_id: labelId }, data: changes });
        if (before.type === 'ticket' && after.name !== before.name) {
          await tx.$executeRaw`
            UPDATE inbox_tickets t SET labels = ARRAY(
              SELECT l FROM unnest(array_replace(t.labels, ${before.name}, ${after.name})) WITH ORDINALITY AS x(l, i) GROUP BY l ORDER BY min(i))
            WHERE t.org_id = ${orgId}::uuid AND ${before.name} = ANY(t.labels)`;
        }
        return after;
      });
    } catch (e) {
      if (isDuplicateKey(e)) return 'name-taken';
      throw e;
    }
  }

  /** Deletes a label (a ticket label's name leaves the organization's tickets in the same transaction); null when there was none. */
  async delete(orgId: string, labelId: string): Promise<LabelRow | null> {
    return this.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<LabelRow[]>`
        DELETE FROM inbox_labels WHERE org_id = ${orgId}::uuid AND label_id = ${labelId}::uuid
        RETURNING label_id::text, org_id::text, name, color, type, created_at`;
      if (row?.type === 'ticket') {
        await tx.$executeRaw`UPDATE inbox_tickets SET labels = array_remove(labels, ${row.name}) WHERE org_id = ${orgId}::uuid AND ${row.name} = ANY(labels)`;
      }
      return row ?? null;
    });
  }
}
