import { randomUUID } from 'node:crypto';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { OfflineHashEmbedder } from '../../embedding/offline-hash-embedder';
import { SearchKbEntries } from './search-entries.usecase';

/**
 * An organization with an HNSW index of its own is searched through the repository whose connections carry
 * KB_SEARCH_EF_SEARCH_OWN_INDEX, with the statement of its index's kind (halfvec, or the earlier full-vector
 * kind); every other one through the default repository (the global index's ef_search and statement).
 * Which repository answered, and how it was asked to walk, is what this checks; the indexes themselves are
 * in the int-spec.
 */
describe('SearchKbEntries: which repository searches, and how', () => {
  const [half, legacy, small] = [randomUUID(), randomUUID(), randomUUID()];
  const repo = (calls: string[], name: string) =>
    ({
      search: async (org: string, _v: string, _k: number, _f: unknown, walk: string) => (calls.push(`${name}:${walk}:${org}`), []),
    }) as unknown as KbEntryRepository;
  const kinds = new Map<string, 'halfvec' | 'vector'>([
    [half, 'halfvec'],
    [legacy, 'vector'],
  ]);

  it("routes an organization with its own index to the own-index repository with its index's kind, the others to the default one", async () => {
    const calls: string[] = [];
    const usecase = new SearchKbEntries(repo(calls, 'default'), new OfflineHashEmbedder(), {
      entries: repo(calls, 'own'),
      directory: { kind: (org) => kinds.get(org) },
    });
    for (const org of [half, legacy, small])
      await usecase.execute({ ctx: { org_id: org }, body: { query: 'opening hours', k: 5 } } as never);
    expect(calls).toEqual([`own:halfvec:${half}`, `own:vector:${legacy}`, `default:vector:${small}`]);
  });

  it('without the own-index repository every search uses the default one', async () => {
    const calls: string[] = [];
    await new SearchKbEntries(repo(calls, 'default'), new OfflineHashEmbedder()).execute({
      ctx: { org_id: half },
      body: { query: 'q', k: 5 },
    } as never);
    expect(calls).toEqual([`default:vector:${half}`]);
  });
});
