import { createPrismaClient } from '@mapi/db';
import { OutboxRelay, SessionCommands, StreamWatch, ensureStreams, streamNames } from '@mapi/events';
import {
  ConfigError,
  bindHandlers,
  connectNats,
  createLogger,
  loadConfig,
  natsIndicator,
  outageLog,
  parseConfig,
  postgresIndicator,
  redisIndicator,
  startRpcService,
  directDatabaseUrl,
} from '@mapi/platform';
import { createStorage } from '@mapi/storage';
import { Redis } from 'ioredis';
import { PhonesConfigSchema } from './config';
import { parseBaileysConfig } from './baileys/config';
import { baileysConnectorFactory } from './baileys/create-baileys-connector';
import { CLOUD_API_HANDLERS } from './cloud-api/cloud-api.handlers';
import { parseCloudApiConfig } from './cloud-api/config';
import { cloudApiParts } from './cloud-api/create-cloud-api-connector';
import { PHONES_HANDLERS, SANDBOX_HANDLERS } from './phones.handlers';
import { PhoneRepository } from './repositories/phone-repository';
import { SandboxConnector } from './sandbox/sandbox-connector';
import { SandboxNetwork } from './sandbox/sandbox-network';
import { SandboxPhones } from './sandbox/sandbox-phones';
import { IngestLog } from './sessions/ingest-log';
import { IngestPublisher } from './sessions/ingest-publisher';
import { PhoneLeases } from './sessions/phone-leases';
import { PhoneStateUpdater } from './sessions/phone-state-updater';
import { SessionManager } from './sessions/session-manager';

/** Starts the phones service: phone routes, connector sessions (leased per phone), the sandbox network. */
export async function bootstrapPhonesService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'redis', 'nats', 'health', 'telemetry']);
  const phonesConfig = parseConfig(PhonesConfigSchema);
  const baileysParsed = parseBaileysConfig(process.env);
  if (!baileysParsed.ok) throw new ConfigError(`Invalid configuration:\n  ${baileysParsed.issues.join('\n  ')}`);
  const cloudApiParsed = parseCloudApiConfig(process.env);
  if (!cloudApiParsed.ok) throw new ConfigError(`Invalid configuration:\n  ${cloudApiParsed.issues.join('\n  ')}`);
  const ns = config.app.NAMESPACE;
  const logger = createLogger('phones', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const redis = new Redis(config.redis.REDIS_URL, { maxRetriesPerRequest: 2 });
  redis.on('error', (err) => outageLog(logger).warn('redis connection error', { err: err.message }));
  const nc = await connectNats(config.nats.NATS_URL, 'phones');
  await ensureStreams(nc, ns);

  const phones = new PhoneRepository(prisma);
  const network = new SandboxNetwork(prisma);
  const sessions = new SessionCommands(nc, ns);
  // What was published and not yet taken by chats, published again if NATS loses the stream (decision 0079).
  const ingestLog = new IngestLog(prisma, nc, logger);
  const ingestWatch = new StreamWatch(nc, streamNames(ns).ingest, ingestLog, logger);
  const baileys = baileysConnectorFactory({ prisma, config: baileysParsed.config, logger });
  // Where files are written (received Cloud API media, files sandbox phones send), as the media service reads them.
  const media = {
    storage: createStorage(baileysParsed.config.storage),
    mediaBaseUrl: baileysParsed.config.mediaBaseUrl,
    maxBytes: baileysParsed.config.mediaMaxBytes,
  };
  const cloudApi = cloudApiParts({ prisma, config: cloudApiParsed.config, media, logger });
  const publisher = new IngestPublisher(nc, ns, ingestLog);
  const manager = new SessionManager({
    nc,
    namespace: ns,
    prisma,
    phones,
    leases: new PhoneLeases(redis, ns, phonesConfig.REPLICA_ID, phonesConfig.PHONE_LEASE_TTL_MS),
    publisher,
    states: new PhoneStateUpdater(prisma),
    factory: (p) =>
      p.connector === 'baileys'
        ? baileys(p)
        : p.connector === 'cloud_api'
          ? cloudApi.connector(p)
          : p.connector === 'sandbox' && phonesConfig.SANDBOX_ENABLED
            ? new SandboxConnector(p.phone_id, p.org_id, network, nc, ns, undefined, media)
            : null,
    logger,
    scanMs: phonesConfig.SESSION_SCAN_MS,
  });
  const handlers = [
    ...bindHandlers(PHONES_HANDLERS, {
      prisma,
      phones,
      sessions,
      defaultConnector: phonesConfig.DEFAULT_CONNECTOR,
      cloudApi: cloudApi.store,
    }),
    ...bindHandlers(CLOUD_API_HANDLERS, {
      webhook: cloudApi.webhook(publisher),
      store: cloudApi.store,
      graph: cloudApi.graph,
    }),
    ...(phonesConfig.SANDBOX_ENABLED ? bindHandlers(SANDBOX_HANDLERS, new SandboxPhones(network, nc, ns)) : []),
  ];
  const relay = new OutboxRelay(prisma, nc, ns, logger, { listenUrl: directDatabaseUrl(config.database) });
  await startRpcService({
    name: 'phones',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: { handlers },
    start: async () => {
      await relay.start();
      await ingestWatch.start(); // the stream read once first, so every published event is labelled with it
      manager.start();
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), redisIndicator(() => redis.ping()), natsIndicator(nc)],
    },
    readyFields: { replica: phonesConfig.REPLICA_ID, sandbox: phonesConfig.SANDBOX_ENABLED },
    stop: [
      () => manager.stop(), // releases leases: another replica takes the sessions over at once
      () => ingestWatch.stop(),
      () => ingestLog.stop(),
      () => relay.stop(),
    ],
    disconnect: [() => redis.disconnect(), () => prisma.$disconnect()],
  });
}
