import { Module, type DynamicModule } from '@nestjs/common';
import { PARTICIPANT_ACTIONS, ParticipantsRpc } from '@mapi/contracts';
import { createPrismaClient } from '@mapi/db';
import { OutboxRelay, SessionCommands } from '@mapi/events';
import { NatsRpcClient, connectNats, createLogger, loadConfig, natsIndicator, postgresIndicator, startRpcService } from '@mapi/platform';
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
  const relay = new OutboxRelay(prisma, nc, ns, logger);
  await startRpcService({
    name: 'groups',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: { module: GroupsModule.forRoot(useCases), contracts: Object.values(ParticipantsRpc) },
    start: () => relay.start(),
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc)],
    },
    stop: [() => relay.stop(), () => rpc.close()],
    disconnect: [() => prisma.$disconnect()],
  });
}
