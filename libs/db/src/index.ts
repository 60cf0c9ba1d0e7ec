export * from './prisma-client';
export * from './migrate/migrate';
export * from './schema-files';
