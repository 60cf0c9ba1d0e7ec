import type { ConnectionOptions } from 'bullmq';

/**
 * Redis connection options for BullMQ queues and workers from a redis:// (or rediss://) URL. Workers
 * hold blocking connections, which BullMQ accepts only with maxRetriesPerRequest null.
 */
export function bullConnection(redisUrl: string): ConnectionOptions {
  const u = new URL(redisUrl);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    username: u.username || undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
  };
}

/** BullMQ keys live under `<NAMESPACE>:bull`, so deployments and test runs sharing a Redis stay apart. */
export const bullPrefix = (namespace: string) => `${namespace}:bull`;
