import { AdminError } from '@mapi/admin-feature';

/**
 * One line for the user, never a stack trace: an AdminError's message as it is; a Prisma error by
 * its last line (the first ones quote the calling source) with a hint; anything else by its first.
 */
export function describeError(error: unknown): string {
  if (error instanceof AdminError) return error.message;
  if (!(error instanceof Error)) return `unexpected error: ${String(error)}`;
  const lines = error.message
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (error.name.startsWith('PrismaClient')) {
    const code = String((error as { code?: unknown }).code ?? '');
    const hint =
      code === 'P2021' || code === 'P2022'
        ? ' (apply the migrations: npm run db:migrate)'
        : code.startsWith('P10')
          ? ' (check DATABASE_URL)'
          : '';
    return `database error: ${lines.at(-1) ?? error.name}${hint}`;
  }
  return `unexpected error: ${lines[0] ?? error.name}`;
}
