import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { AppProcess, freePort, testEnv } from '@mapi/testing';

/** The gateway and the chats service started as processes against the run's database and namespace. */
export interface Stack {
  baseUrl: string;
  prisma: PrismaClient;
  gateway: AppProcess;
  chats: AppProcess;
  stop(): Promise<void>;
}

export async function startStack(extraEnv: Record<string, string> = {}, options: { gatewayPort?: number } = {}): Promise<Stack> {
  const [port, healthPort] = [options.gatewayPort ?? (await freePort()), await freePort()];
  const env = {
    DATABASE_URL: testEnv.databaseUrl(),
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: testEnv.namespace(),
    NODE_ENV: 'test',
    AUTH_CACHE_TTL_MS: '0',
    ...extraEnv,
  };
  const chats = AppProcess.start('chats', { ...env, HEALTH_PORT: String(healthPort), HEALTH_HOST: '127.0.0.1' });
  const gateway = AppProcess.start('api-gateway', { ...env, PORT: String(port), HOST: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await Promise.all([chats.waitReady(`http://127.0.0.1:${healthPort}/health/ready`), gateway.waitReady(`${baseUrl}/health/ready`)]);
  } catch (error) {
    await Promise.all([gateway.kill(), chats.kill()]);
    throw error;
  }
  const prisma = createPrismaClient({ url: testEnv.databaseUrl(), poolSize: 2 });
  return {
    baseUrl,
    prisma,
    gateway,
    chats,
    stop: async () => {
      await Promise.all([gateway.stop(), chats.stop()]);
      await prisma.$disconnect();
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
