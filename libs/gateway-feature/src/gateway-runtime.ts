import { createPrismaClient, type PrismaClient } from '@mapi/db';
import {
  NatsRpcClient,
  connectNats,
  natsIndicator,
  postgresIndicator,
  redisIndicator,
  type ConfigOf,
  type HealthIndicator,
  type Logger,
} from '@mapi/platform';
import { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import { Authenticator } from './auth/authenticator';
import { TokenRepository } from './auth/token-repository';
import { PhoneRepository } from './phones/phone-repository';
import { PhoneResolver } from './phones/phone-resolver';
import { RateLimiter } from './rate-limit/rate-limiter';

export type GatewayConfig = ConfigOf<'app' | 'database' | 'redis' | 'nats' | 'http' | 'rateLimit' | 'auth' | 'telemetry'>;

/** The gateway's connections and the objects built on them; `close()` releases them in order. */
export class GatewayRuntime {
  private constructor(
    readonly config: GatewayConfig,
    readonly logger: Logger,
    readonly prisma: PrismaClient,
    readonly redis: Redis,
    readonly nc: NatsConnection,
    readonly rpc: NatsRpcClient,
  ) {}

  static async open(config: GatewayConfig, logger: Logger): Promise<GatewayRuntime> {
    const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
    const redis = new Redis(config.redis.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
    redis.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
    await redis.connect().catch((err) => logger.warn({ err: err.message }, 'redis not reachable at start; will retry'));
    const nc = await connectNats(config.nats.NATS_URL, 'api-gateway');
    const rpc = new NatsRpcClient(nc, config.app.NAMESPACE, config.nats.RPC_TIMEOUT_MS);
    return new GatewayRuntime(config, logger, prisma, redis, nc, rpc);
  }

  get authenticator(): Authenticator {
    return new Authenticator(new TokenRepository(this.prisma), this.config.auth.AUTH_CACHE_TTL_MS, this.logger);
  }

  get phoneResolver(): PhoneResolver {
    return new PhoneResolver(new PhoneRepository(this.prisma), this.config.auth.AUTH_CACHE_TTL_MS);
  }

  get rateLimiter(): RateLimiter {
    return new RateLimiter(this.redis, this.config.app.NAMESPACE);
  }

  get indicators(): HealthIndicator[] {
    return [
      postgresIndicator(() => this.prisma.$queryRaw`SELECT 1`),
      redisIndicator(() => this.redis.ping()),
      natsIndicator(this.nc),
    ];
  }

  async close(): Promise<void> {
    await this.rpc.close();
    await this.nc.drain().catch(() => undefined);
    this.redis.disconnect();
    await this.prisma.$disconnect();
  }
}
