import { existsSync } from 'node:fs';

/**
 * Where no server URLs are configured and a Docker engine answers, the servers come from
 * testcontainers (Postgres with pgvector, Redis, NATS with JetStream). On machines without a Docker
 * engine (ours), tests use DATABASE_URL / REDIS_URL / NATS_URL or their localhost defaults.
 */
type Started = { stop(): Promise<unknown> };
const started: Started[] = [];

const dockerAvailable = () => Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');

export async function startContainersIfNeeded(): Promise<void> {
  const configured = process.env.DATABASE_URL || process.env.REDIS_URL || process.env.NATS_URL || process.env.TEST_ADMIN_DATABASE_URL;
  if (configured || !dockerAvailable()) return;
  const { GenericContainer, Wait } = await import('testcontainers');
  try {
    const pg = await new GenericContainer('pgvector/pgvector:pg15')
      .withEnvironment({ POSTGRES_PASSWORD: 'postgres' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start();
    started.push(pg);
    const redis = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    started.push(redis);
    const nats = await new GenericContainer('nats:2.10-alpine').withCommand(['-js']).withExposedPorts(4222).start();
    started.push(nats);
    process.env.TEST_ADMIN_DATABASE_URL = `postgresql://postgres:postgres@${pg.getHost()}:${pg.getMappedPort(5432)}/postgres`;
    process.env.REDIS_URL = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
    process.env.NATS_URL = `nats://${nats.getHost()}:${nats.getMappedPort(4222)}`;
  } catch (error) {
    await stopContainers();
    throw new Error(
      `testcontainers could not start the test servers (${(error as Error).message}); set DATABASE_URL, REDIS_URL and NATS_URL instead`,
    );
  }
}

export async function stopContainers(): Promise<void> {
  await Promise.allSettled(started.splice(0).map((c) => c.stop()));
}
