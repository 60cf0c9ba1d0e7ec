import { defineConfig } from 'prisma/config';

// Prisma 7 reads the connection from here, not from schema.prisma. Migrations are plain SQL under
// prisma/migrations: `prisma migrate deploy` applies them where Prisma's native engine exists, and
// `npm run db:migrate` (libs/db/src/migrate) applies them with the same bookkeeping where it does not.
export default defineConfig({
  schema: 'prisma/schema',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/mapi' },
});
