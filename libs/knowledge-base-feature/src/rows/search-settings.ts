/** How a search gets pgvector's HNSW settings on its connection. */
export interface KbSearchSettings {
  efSearch: number;
  /**
   * true behind a transaction-mode pooler (DATABASE_POOLER=pgbouncer): no connection is ours beyond a
   * transaction and startup options are refused, so a search runs in a transaction that sets them
   * (SET LOCAL): 4 statements instead of 1.
   */
  perTransaction: boolean;
}

export const hnswSettings = (efSearch: number) => ({ 'hnsw.iterative_scan': 'relaxed_order', 'hnsw.ef_search': String(efSearch) });
