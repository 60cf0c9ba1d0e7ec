import { createPrismaClient, type PrismaClient } from '@mapi/db';
import {
  NatsRpcClient,
  connectNats,
  natsIndicator,
  outageLog,
  postgresIndicator,
  redisIndicator,
  type ConfigOf,
  type HealthIndicator,
  type Logger,
} from '@mapi/platform';
import { TouchApiTokenRpc } from '@mapi/contracts';
import { consumersIndicator } from '@mapi/events';
import { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import { Authenticator } from './auth/authenticator';
import { TokenRepository } from './repositories/token-repository';
import { TokenPrincipals } from './auth/token-principals';
import { PhoneDirectoryClient } from './phones/phone-directory-client';
import { PhoneResolver } from './phones/phone-resolver';
import { RateLimiter } from './rate-limit/rate-limiter';
import { SignInThrottle, type ConsoleAuthConfig } from './rate-limit/sign-in-throttle';
import { RpcSessionLookup } from './auth/session-client';
import type { UploadConfig } from './upload/upload-config';
import type { TrustProxyConfig } from './http/trust-proxy-config';

export type GatewayConfig = ConfigOf<'app' | 'database' | 'redis' | 'nats' | 'http' | 'health' | 'rateLimit' | 'auth' | 'telemetry'> & {
  upload: UploadConfig;
  console: ConsoleAuthConfig;
  proxy: TrustProxyConfig;
};

/**
 * The gateway's connections and the objects built on them, each made once (HTTP routes and the
 * realtime handshake share one token cache and one phone cache); `close()` releases them in order.
 */
export class GatewayRuntime {
  readonly authenticator: Authenticator;
  readonly phoneResolver: PhoneResolver;
  readonly rateLimiter: RateLimiter;
  readonly signInThrottle: SignInThrottle;

  private constructor(
    readonly config: GatewayConfig,
    readonly logger: Logger,
    readonly prisma: PrismaClient,
    readonly redis: Redis,
    readonly nc: NatsConnection,
    readonly rpc: NatsRpcClient,
  ) {
    const recordUse = async (tokenId: string, usedAt: Date) => {
      await rpc.call(TouchApiTokenRpc, { body: { token_id: tokenId, used_at: usedAt.toISOString() } });
    };
    this.authenticator = new Authenticator(
      new TokenPrincipals(new TokenRepository(prisma, recordUse)),
      config.auth,
      logger,
      new RpcSessionLookup(rpc),
    );
    this.phoneResolver = new PhoneResolver(new PhoneDirectoryClient(rpc), config.auth);
    this.rateLimiter = new RateLimiter(redis, config.app.NAMESPACE);
    this.signInThrottle = new SignInThrottle(redis, config.app.NAMESPACE, config.console, logger);
  }

  static async open(config: GatewayConfig, logger: Logger): Promise<GatewayRuntime> {
    const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
    const redis = new Redis(config.redis.REDIS_URL, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
    redis.on('error', (err) => outageLog(logger).warn('redis connection error', { err: err.message }));
    await redis.connect().catch((err) => logger.warn({ err: err.message }, 'redis not reachable at start; will retry'));
    const nc = await connectNats(config.nats.NATS_URL, 'api-gateway');
    const rpc = new NatsRpcClient(nc, config.app.NAMESPACE, config.nats.RPC_TIMEOUT_MS, {
      unavailableRetryMs: config.nats.RPC_UNAVAILABLE_RETRY_MS,
    });
    return new GatewayRuntime(config, logger, prisma, redis, nc, rpc);
  }

  get indicators(): HealthIndicator[] {
    return [
      postgresIndicator(() => this.prisma.$queryRaw`SELECT 1`),
      redisIndicator(() => this.redis.ping()),
      natsIndicator(this.nc),
      consumersIndicator(), // the realtime reader of the event stream (started after the runtime opens)
    ];
  }

  async close(): Promise<void> {
    await this.rpc.close();
    await this.nc.drain().catch(() => undefined);
    this.redis.disconnect();
    await this.prisma.$disconnect();
  }
}
