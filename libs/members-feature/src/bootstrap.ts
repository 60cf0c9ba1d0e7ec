import { PhoneDirectoryRpc, SetChatAccessRpc } from '@mapi/contracts';
import { createPrismaClient } from '@mapi/db';
import {
  NatsRpcClient,
  bindHandlers,
  connectNats,
  createLogger,
  loadConfig,
  natsIndicator,
  postgresIndicator,
  startRpcService,
} from '@mapi/platform';
import { loadMembersConfig } from './config';
import { NO_MAILER, SmtpInviteMailer } from './mail/invite-mailer';
import { MEMBERS_HANDLERS } from './members.handlers';

/** Starts the members service: members, invitations, console sessions and the audit trail; health on HEALTH_PORT. */
export async function bootstrapMembersService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const own = loadMembersConfig();
  const ns = config.app.NAMESPACE;
  const logger = createLogger('members', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, 'members');
  const rpc = new NatsRpcClient(nc, ns, config.nats.RPC_TIMEOUT_MS);
  const mailer = own.SMTP_HOST ? new SmtpInviteMailer(own, logger) : NO_MAILER;
  logger.info(
    { smtp: mailer.configured },
    mailer.configured ? 'invitations are mailed' : 'no SMTP_HOST: invitation links go back to the inviter',
  );
  await startRpcService({
    name: 'members',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: {
      handlers: bindHandlers(MEMBERS_HANDLERS, {
        prisma,
        directory: (request) => rpc.call(PhoneDirectoryRpc, request),
        mailer,
        invites: { consoleBaseUrl: own.CONSOLE_BASE_URL, inviteTtlHours: own.INVITE_TTL_HOURS },
        sessionTtlSeconds: own.SESSION_TTL_SECONDS,
        setChatAccess: (request) => rpc.call(SetChatAccessRpc, request),
      }),
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc)],
    },
    stop: [() => rpc.close(), async () => (mailer instanceof SmtpInviteMailer ? mailer.close() : undefined)],
    disconnect: [() => prisma.$disconnect()],
  });
}
