import type { PrismaClient } from '@mapi/db';
import { isDuplicateKey } from '../rows/pg-errors';

/** A stored custom property definition, as `inbox_custom_properties` holds it. */
export interface CustomPropertyRow {
  property_id: string;
  org_id: string;
  property_name: string;
  property_value_type: string;
  /** A dropdown's options (empty for the other types). */
  property_value: string[];
  is_required: boolean;
  type: string;
  created_by: string | null;
  created_at: Date;
}

export type NewCustomProperty = Omit<CustomPropertyRow, 'org_id' | 'created_at'>;
export type CustomPropertyChanges = Partial<Pick<CustomPropertyRow, 'property_name' | 'property_value' | 'is_required'>>;

/** Postgres' unique_violation: another property of the organization has the name (any case). */
const isNameTaken = isDuplicateKey;

/** The organization's custom property definitions. The organization is part of every signature. */
export class CustomPropertyRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Every definition of the organization (of one type: chat, ticket; absent: all), oldest first. */
  list(orgId: string, type?: string): Promise<CustomPropertyRow[]> {
    return this.prisma.inboxCustomProperty.findMany({
      where: { org_id: orgId, ...(type ? { type } : {}) },
      orderBy: [{ created_at: 'asc' }, { property_id: 'asc' }],
    });
  }

  count(orgId: string): Promise<number> {
    return this.prisma.inboxCustomProperty.count({ where: { org_id: orgId } });
  }

  find(orgId: string, propertyId: string): Promise<CustomPropertyRow | null> {
    return this.prisma.inboxCustomProperty.findFirst({ where: { org_id: orgId, property_id: propertyId } });
  }

  /** The new definition; null when the organization has a property of that name (any case). */
  async create(orgId: string, p: NewCustomProperty): Promise<CustomPropertyRow | null> {
    try {
      return await this.prisma.inboxCustomProperty.create({ data: { ...p, org_id: orgId } });
    } catch (e) {
      if (isNameTaken(e)) return null;
      throw e;
    }
  }

  /** The definition after the change; 'missing' when the organization has no such property, 'name-taken' on a name clash. */
  async update(orgId: string, propertyId: string, changes: CustomPropertyChanges): Promise<CustomPropertyRow | 'missing' | 'name-taken'> {
    try {
      const { count } = await this.prisma.inboxCustomProperty.updateMany({
        where: { org_id: orgId, property_id: propertyId },
        data: changes,
      });
      if (!count) return 'missing';
    } catch (e) {
      if (isNameTaken(e)) return 'name-taken';
      throw e;
    }
    return (await this.find(orgId, propertyId)) ?? 'missing';
  }

  /**
   * The deleted definition; null when the organization had none of that id. A ticket property's values
   * leave the organization's tickets in the same transaction (no ticket.updated: the deletion is the change).
   */
  async delete(orgId: string, propertyId: string): Promise<CustomPropertyRow | null> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<CustomPropertyRow[]>`
        DELETE FROM inbox_custom_properties WHERE org_id = ${orgId}::uuid AND property_id = ${propertyId}::uuid
        RETURNING property_id::text, org_id::text, property_name, property_value_type, property_value, is_required, type, created_by, created_at`;
      if (rows[0]?.type === 'ticket') {
        await tx.$executeRaw`
          UPDATE inbox_tickets SET custom_properties = custom_properties - ${propertyId}::text
          WHERE org_id = ${orgId}::uuid AND custom_properties ? ${propertyId}::text`;
      }
      return rows[0] ?? null;
    });
  }
}
