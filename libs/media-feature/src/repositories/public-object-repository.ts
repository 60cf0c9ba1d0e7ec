import type { PrismaClient } from '@mapi/db';
import type { ObjectKey } from '@mapi/storage';
import { isOwnedBy } from '../rows/ownership';

/**
 * Files published with a public link (table media_public_objects). The file route serves a file
 * without a token only when it is listed here. Every method takes the organization first; lookups
 * by key also check the owner, so a row can never publish another organization's file.
 */
export class PublicObjectRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Marks the organization's files public (idempotent). Keys of other organizations are ignored. */
  async publish(orgId: string, keys: readonly ObjectKey[]): Promise<void> {
    const own = keys.filter((k) => isOwnedBy(k, orgId));
    if (!own.length) return;
    await this.prisma.mediaPublicObject.createMany({
      data: own.map((k) => ({ org_id: orgId, bucket: k.bucket, object_name: k.name })),
      skipDuplicates: true,
    });
  }

  async isPublic(orgId: string, key: ObjectKey): Promise<boolean> {
    const row = await this.prisma.mediaPublicObject.findUnique({
      where: { bucket_object_name: { bucket: key.bucket, object_name: key.name } },
      select: { org_id: true },
    });
    return row !== null && row.org_id.toLowerCase() === orgId.toLowerCase();
  }
}
