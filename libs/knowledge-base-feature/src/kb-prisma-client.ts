import { createPrismaClient, type PrismaClient } from '@mapi/db';

/**
 * A Prisma client whose connections search HNSW iteratively (pgvector 0.8): with a filter on the
 * organization, the index scan goes on until enough rows of that organization are found instead of
 * stopping at ef_search candidates of every organization. Set as connection options, so a search
 * is one statement (no transaction for SET LOCAL).
 */
export function createKbPrismaClient(url: string, poolSize: number, efSearch: number): PrismaClient {
  const u = new URL(url);
  const extra = `-c hnsw.iterative_scan=relaxed_order -c hnsw.ef_search=${efSearch}`;
  const existing = u.searchParams.get('options');
  u.searchParams.set('options', existing ? `${existing} ${extra}` : extra);
  return createPrismaClient({ url: u.toString(), poolSize });
}
