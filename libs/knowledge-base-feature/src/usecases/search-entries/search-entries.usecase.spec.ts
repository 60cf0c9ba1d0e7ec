import { randomUUID } from 'node:crypto';
import type { KbEntryRepository } from '../../repositories/kb-entry-repository';
import { OfflineHashEmbedder } from '../../embedding/offline-hash-embedder';
import { SearchKbEntries } from './search-entries.usecase';

/**
 * An organization with an HNSW index of its own is searched through the repository whose connections carry
 * KB_SEARCH_EF_SEARCH_OWN_INDEX; every other one through the default repository (the global index's
 * ef_search). Which repository answered is what this checks; the indexes themselves are in the int-spec.
 */
describe('SearchKbEntries: which repository searches', () => {
  const [large, small] = [randomUUID(), randomUUID()];
  const repo = (calls: string[], name: string) => ({ search: async (org: string) => (calls.push(`${name}:${org}`), []) }) as unknown as KbEntryRepository;

  it('routes an organization with its own index to the own-index repository, the others to the default one', async () => {
    const calls: string[] = [];
    const usecase = new SearchKbEntries(repo(calls, 'default'), new OfflineHashEmbedder(), {
      entries: repo(calls, 'own'),
      directory: { has: (org) => org === large },
    });
    for (const org of [large, small]) await usecase.execute({ ctx: { org_id: org }, body: { query: 'opening hours', k: 5 } } as never);
    expect(calls).toEqual([`own:${large}`, `default:${small}`]);
  });

  it('without the own-index repository every search uses the default one', async () => {
    const calls: string[] = [];
    await new SearchKbEntries(repo(calls, 'default'), new OfflineHashEmbedder()).execute({ ctx: { org_id: large }, body: { query: 'q', k: 5 } } as never);
    expect(calls).toEqual([`default:${large}`]);
  });
});
