import type { ObjectKey } from '@mapi/storage';
import type { PublicObjectRepository } from '../repositories/public-object-repository';

/**
 * Whether a file was published with a public link, with a short in-memory cache of the answers that
 * are "yes" (publishing is never undone, so a remembered yes stays true). A "no" is always asked
 * again, so a file is served publicly as soon as its public link has been issued.
 */
export class PublicFiles {
  private readonly known = new Map<string, number>();

  constructor(
    private readonly repository: Pick<PublicObjectRepository, 'isPublic'>,
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 50_000,
  ) {}

  async isPublic(orgId: string, key: ObjectKey): Promise<boolean> {
    const id = `${key.bucket}/${key.name}`;
    const until = this.known.get(id);
    if (until !== undefined && until > Date.now()) return true;
    const yes = await this.repository.isPublic(orgId, key);
    if (yes) {
      if (this.known.size >= this.maxEntries) this.known.clear();
      this.known.set(id, Date.now() + this.ttlMs);
    } else {
      this.known.delete(id);
    }
    return yes;
  }
}
