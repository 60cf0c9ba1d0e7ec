import { Module, type DynamicModule } from '@nestjs/common';
import { ChoosePhoneRpc, ListChatMessagesRpc } from '@mapi/contracts';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { OutboxRelay, ensureStreams } from '@mapi/events';
import { connectNats, createLogger, loadConfig, natsIndicator, postgresIndicator, startRpcService } from '@mapi/platform';
import { ChatsController } from './chats.controller';
import { ApplyIngest } from './ingest/apply-ingest.usecase';
import { createIngestConsumer } from './ingest/ingest-consumer';
import { MessageRepository } from './messages/message-repository';
import { ListChatMessages } from './usecases/list-chat-messages/list-chat-messages.usecase';
import { ChooseActingPhone } from './usecases/choose-phone/choose-acting-phone.usecase';

export const CHATS_CONTRACTS = [ListChatMessagesRpc, ChoosePhoneRpc];

@Module({})
class ChatsModule {
  static forRoot(prisma: PrismaClient): DynamicModule {
    return {
      module: ChatsModule,
      controllers: [ChatsController],
      providers: [
        { provide: ListChatMessages, useFactory: () => new ListChatMessages(new MessageRepository(prisma)) },
        { provide: ChooseActingPhone, useFactory: () => new ChooseActingPhone(prisma) },
      ],
    };
  }
}

/** Starts the chats service: answers its NATS subjects in the `chats` queue group; health on HEALTH_PORT. */
export async function bootstrapChatsService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const logger = createLogger('chats', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, 'chats');
  await ensureStreams(nc, config.app.NAMESPACE);
  const relay = new OutboxRelay(prisma, nc, config.app.NAMESPACE, logger);
  const ingest = createIngestConsumer(nc, config.app.NAMESPACE, new ApplyIngest(prisma, () => relay.kick()), logger);
  await startRpcService({
    name: 'chats',
    nc,
    namespace: config.app.NAMESPACE,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: { module: ChatsModule.forRoot(prisma), contracts: CHATS_CONTRACTS },
    start: async () => {
      relay.start();
      await ingest.start();
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc)],
    },
    stop: [
      () => ingest.stop(), // the batch under way is applied and acknowledged first
      () => relay.stop(),
    ],
    disconnect: [() => prisma.$disconnect()],
  });
}
