import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { hnswSettings, type KbSearchSettings } from './rows/search-settings';

export type { KbSearchSettings } from './rows/search-settings';

/**
 * A Prisma client whose connections search HNSW iteratively (pgvector 0.8): with a filter on the
 * organization, the index scan goes on until enough rows of that organization are found instead of
 * stopping at ef_search candidates of every organization. Direct to Postgres they are connection
 * options, so a search is one statement; behind a pooler the search sets them itself
 * (KbEntryRepository.search, `perTransaction`).
 */
export function createKbPrismaClient(url: string, poolSize: number, search: KbSearchSettings): PrismaClient {
  if (search.perTransaction) return createPrismaClient({ url, poolSize });
  const u = new URL(url);
  const extra = Object.entries(hnswSettings(search.efSearch))
    .map(([k, v]) => `-c ${k}=${v}`)
    .join(' ');
  const existing = u.searchParams.get('options');
  u.searchParams.set('options', existing ? `${existing} ${extra}` : extra);
  return createPrismaClient({ url: u.toString(), poolSize });
}
