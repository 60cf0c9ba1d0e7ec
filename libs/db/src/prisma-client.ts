import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export type { PrismaClient } from './generated/prisma/client';
export { Prisma } from './generated/prisma/client';

export interface PrismaClientOptions {
  url: string;
  /** Pool size of the pg driver under the adapter. */
  poolSize?: number;
}

/** The Prisma client on the pg driver adapter: no native query engine at run time. */
export function createPrismaClient(options: PrismaClientOptions): PrismaClient {
  const adapter = new PrismaPg({ connectionString: options.url, max: options.poolSize ?? 10 });
  return new PrismaClient({ adapter });
}
