import { Module, type DynamicModule } from '@nestjs/common';
import { PARTICIPANT_ACTIONS, ParticipantsRpc } from '@mapi/contracts';
import { createPrismaClient } from '@mapi/db';
import { OutboxRelay, SessionCommands } from '@mapi/events';
import {
  NatsRpcClient,
  NatsRpcServer,
  connectNats,
  createLogger,
  createRpcMicroservice,
  loadConfig,
  natsIndicator,
  onShutdownSignal,
  postgresIndicator,
  startHealthServer,
} from '@mapi/platform';
import { GroupsController, PARTICIPANT_USE_CASES } from './groups.controller';
import { ChangeParticipants } from './usecases/change-participants/change-participants.usecase';

@Module({})
class GroupsModule {
  static forRoot(useCases: unknown): DynamicModule {
    return { module: GroupsModule, controllers: [GroupsController], providers: [{ provide: PARTICIPANT_USE_CASES, useValue: useCases }] };
  }
}

/** Starts the groups service: participant actions through the acting phone's session. */
export async function bootstrapGroupsService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const ns = config.app.NAMESPACE;
  const logger = createLogger('groups', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, 'groups');
  const sessions = new SessionCommands(nc, ns, 10_000);
  const rpc = new NatsRpcClient(nc, ns, config.nats.RPC_TIMEOUT_MS);
  const useCases = Object.fromEntries(PARTICIPANT_ACTIONS.map((a) => [a, new ChangeParticipants(a, sessions, rpc, prisma)]));
  const server = new NatsRpcServer({ nc, namespace: ns, contracts: Object.values(ParticipantsRpc), logger, validateReplies: config.app.NODE_ENV === 'test' });
  const app = await createRpcMicroservice(GroupsModule.forRoot(useCases), server, logger);
  await app.listen();
  const relay = new OutboxRelay(prisma, nc, ns, logger);
  relay.start();
  let shuttingDown = false;
  const health = await startHealthServer({
    host: config.health.HEALTH_HOST,
    port: config.health.HEALTH_PORT,
    indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc)],
    isShuttingDown: () => shuttingDown,
  });
  logger.info('groups service ready');
  onShutdownSignal(logger, async () => {
    shuttingDown = true;
    await app.close();
    await relay.stop();
    await rpc.close();
    await nc.drain().catch(() => undefined);
    await prisma.$disconnect();
    health.close();
  });
}
