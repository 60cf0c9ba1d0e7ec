import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { AppProcess, createTestDatabase, freePort, randomSuffix, testEnv, type TestDatabase } from '@mapi/testing';

/** The gateway and the chats service started as processes against the run's database and namespace. */
export interface Stack {
  baseUrl: string;
  /** The environment every process of this stack runs with (its NAMESPACE included). */
  env: Record<string, string>;
  prisma: PrismaClient;
  gateway: AppProcess;
  chats: AppProcess;
  /** Every started service by app name (chats always; phones when asked for). */
  apps: Record<string, AppProcess>;
  /** The base URL of a started app's health server (its /health/* and /metrics). */
  healthUrl(app: AppProcess): string;
  /** Starts one more instance of a service app (e.g. a second phones replica). */
  startService(app: string, env?: Record<string, string>): Promise<AppProcess>;
  stop(): Promise<void>;
}

/**
 * Runs `starts` (each starting something and waiting until it is ready) with at most `concurrent`
 * under way at once, each next one as soon as one ends: no start waits for a whole wave's slowest.
 * Results in the order given; after a failure no further start begins (the first error is thrown).
 */
export async function inWindow<T>(starts: (() => Promise<T>)[], concurrent = 3): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  let failed = false;
  await Promise.all(
    Array.from({ length: Math.min(concurrent, starts.length) }, async () => {
      while (!failed && next < starts.length) {
        const i = next++;
        results[i] = await starts[i]().catch((error) => {
          failed = true;
          throw error;
        });
      }
    }),
  );
  return results;
}

export async function startStack(
  extraEnv: Record<string, string> = {},
  options: { gatewayPort?: number; services?: string[] } = {},
): Promise<Stack> {
  const port = options.gatewayPort ?? (await freePort());
  // A database per stack: each stack's outbox relays publish every unpublished event they find, so
  // stacks sharing a database (test files run in parallel) would take each other's events.
  const db: TestDatabase | null = extraEnv.DATABASE_URL ? null : await createTestDatabase('mapi_e2e');
  // A files root per stack (media, the sandbox's sent files, imports): stacks never see each other's files.
  const storageRoot = extraEnv.MEDIA_STORAGE_ROOT ? null : mkdtempSync(join(tmpdir(), 'mapi-e2e-storage-'));
  const env = {
    DATABASE_URL: db?.url ?? extraEnv.DATABASE_URL,
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    // A namespace per stack: test files run in parallel, and their services must not answer each other.
    NAMESPACE: `${testEnv.namespace()}-${randomSuffix(3)}`,
    NODE_ENV: 'test',
    AUTH_CACHE_TTL_MS: '0',
    // A route whose service a stack does not start answers 503 at once (production waits
    // RPC_UNAVAILABLE_RETRY_MS for a restarting instance); the tests of that wait set it themselves.
    RPC_UNAVAILABLE_RETRY_MS: '0',
    // Two test files' stacks share the machine's Postgres (max_connections 100): two stacks of every
    // service in replicas beside two import stacks at 10 connections a process ran it out of clients.
    DATABASE_POOL_SIZE: '5',
    ...(storageRoot ? { MEDIA_STORAGE_ROOT: storageRoot } : {}),
    ...extraEnv,
  };
  const removeStorage = () => storageRoot && rmSync(storageRoot, { recursive: true, force: true });
  const extra: AppProcess[] = [];
  const healthUrls = new Map<AppProcess, string>();
  const launch = async (app: string, more: Record<string, string> = {}) => {
    const healthPort = await freePort();
    const proc = AppProcess.start(app, { ...env, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1', ...more });
    healthUrls.set(proc, `http://127.0.0.1:${healthPort}`);
    extra.push(proc);
    return { proc, ready: () => proc.waitReady(`http://127.0.0.1:${healthPort}/health/ready`) };
  };
  const services = await Promise.all(['chats', ...(options.services ?? [])].map((app) => launch(app)));
  const gatewayHealthPort = await freePort();
  const gateway = AppProcess.start('api-gateway', {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    HEALTH_PORT: String(gatewayHealthPort),
    HEALTH_HOST: '127.0.0.1',
  });
  healthUrls.set(gateway, `http://127.0.0.1:${gatewayHealthPort}`);
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await Promise.all([...services.map((s) => s.ready()), gateway.waitReady(`${baseUrl}/health/ready`)]);
  } catch (error) {
    await Promise.all([gateway.kill(), ...extra.map((p) => p.kill())]);
    await db?.drop();
    removeStorage();
    throw error;
  }
  const apps = Object.fromEntries(services.map((s) => [s.proc.name, s.proc]));
  const prisma = createPrismaClient({ url: env.DATABASE_URL, poolSize: 2 });
  const startService = async (app: string, more: Record<string, string> = {}) => {
    const started = await launch(app, more);
    await started.ready();
    return started.proc;
  };
  return {
    baseUrl,
    env,
    prisma,
    gateway,
    chats: apps.chats,
    apps,
    healthUrl: (app) => {
      const url = healthUrls.get(app);
      if (!url) throw new Error(`${app.name} was not started by this stack`);
      return url;
    },
    startService,
    stop: async () => {
      await Promise.all([gateway.stop(), ...extra.map((p) => p.stop())]);
      await prisma.$disconnect();
      await db?.drop();
      removeStorage();
    },
  };
}

export async function getJson(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body: body as any };
}
