export * from './prisma-client';
export * from './migrate/migrate';
