/**
 * Postgres' unique_violation, as Prisma reports it (P2002) or as the driver adapter passes it on (23505):
 * for a create under a key, the racing request with the same key committed first.
 */
export const isDuplicateKey = (error: unknown) => {
  const err = error as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string } } } } | null;
  return err?.code === 'P2002' || err?.meta?.code === '23505' || err?.meta?.driverAdapterError?.cause?.originalCode === '23505';
};
