import { PhoneDirectoryRpc } from '@mapi/contracts';
import { createPrismaClient } from '@mapi/db';
import { OutboxRelay } from '@mapi/events';
import {
  NatsRpcClient,
  bindHandlers,
  connectNats,
  createLogger,
  loadConfig,
  natsIndicator,
  postgresIndicator,
  startRpcService,
  directDatabaseUrl,
} from '@mapi/platform';
import { RpcChatLookup } from './chat-lookup';
import { RpcChatProperties } from './chat-properties';
import { INBOX_HANDLERS } from './inbox.handlers';
import { RpcChatReach } from './member-reach';
import { RpcMessageAttacher } from './message-attacher';
import { reminderPollerFromEnv } from './reminders/reminder-poller-from-env';

/** Starts the inbox service: tickets and private notes on chats; health on HEALTH_PORT. */
export async function bootstrapInboxService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const ns = config.app.NAMESPACE;
  const logger = createLogger('inbox', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, 'inbox');
  const rpc = new NatsRpcClient(nc, ns, config.nats.RPC_TIMEOUT_MS);
  const relay = new OutboxRelay(prisma, nc, ns, logger, { listenUrl: directDatabaseUrl(config.database) });
  const reminders = reminderPollerFromEnv(prisma, logger, directDatabaseUrl(config.database));
  await startRpcService({
    name: 'inbox',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: {
      handlers: bindHandlers(INBOX_HANDLERS, {
        prisma,
        chats: new RpcChatLookup(rpc),
        attacher: new RpcMessageAttacher(rpc),
        chatProperties: new RpcChatProperties(rpc),
        reach: new RpcChatReach(rpc),
        phones: (request) => rpc.call(PhoneDirectoryRpc, request),
      }),
    },
    start: async () => {
      await relay.start();
      await reminders.start();
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc)],
    },
    stop: [() => reminders.stop(), () => relay.stop(), () => rpc.close()],
    disconnect: [() => prisma.$disconnect()],
  });
}
