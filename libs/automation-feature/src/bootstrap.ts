import { createPrismaClient } from '@mapi/db';
import { OutboxRelay, consumersIndicator, ensureStreams } from '@mapi/events';
import {
  AddressPolicy,
  HttpSender,
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
import { loadAgentConfig } from './agent/agent-config';
import { AiAgent } from './agent/ai-agent';
import { AUTOMATION_HANDLERS } from './automation.handlers';
import { AutomationMetrics } from './engine/automation-metrics';
import { loadEngineConfig } from './engine/engine-config';
import { EventIntake } from './engine/event-intake';
import { RunRetention } from './engine/run-retention';
import { RunStore } from './engine/run-store';
import { StepExecutor } from './engine/step-executor';

/** Starts the automation service: workflow routes, the event intake and the step executor; health on HEALTH_PORT. */
export async function bootstrapAutomationService(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const ns = config.app.NAMESPACE;
  const logger = createLogger('automation', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, 'automation');
  const rpc = new NatsRpcClient(nc, ns, config.nats.RPC_TIMEOUT_MS);
  const relay = new OutboxRelay(prisma, nc, ns, logger, { listenUrl: directDatabaseUrl(config.database) });
  const engine = loadEngineConfig();
  const agent = AiAgent.create(loadAgentConfig(), prisma);
  if (!agent.chat) logger.info('AI agent is off: no model configured (AI_AGENT_BASE_URL, AI_AGENT_MODEL); ai_prompt steps fail saying so');
  else logger.info({ model: agent.chat.model, url: agent.chat.url }, 'AI agent on');
  await ensureStreams(nc, ns);
  const metrics = new AutomationMetrics(prisma);
  const store = new RunStore(prisma, metrics);
  const http = new HttpSender(
    new AddressPolicy(engine.AUTOMATION_HTTP_ALLOW_CIDRS),
    engine.AUTOMATION_HTTP_TIMEOUT_MS,
    undefined,
    64,
    'mapi-workflows/1',
  );
  const executor = new StepExecutor(store, rpc, logger, {
    batch: engine.AUTOMATION_STEP_BATCH,
    leaseMs: engine.AUTOMATION_STEP_LEASE_MS,
    maxAttempts: engine.AUTOMATION_STEP_MAX_ATTEMPTS,
    idlePollMs: engine.AUTOMATION_IDLE_POLL_MS,
    fallbackPollMs: engine.AUTOMATION_FALLBACK_POLL_MS,
    listenUrl: directDatabaseUrl(config.database),
    livenessUrl: directDatabaseUrl(config.database),
    metrics,
    holdAfterActionMs: engine.AUTOMATION_FAULT_HOLD_AFTER_ACTION_MS,
    services: { http, agent },
    // first steps the intake hands over, running at once: four rounds' worth (200 by default, a whole intake batch)
    handoffMax: 4 * engine.AUTOMATION_STEP_BATCH,
  });
  const retention = new RunRetention(prisma, logger, {
    retentionMs: engine.AUTOMATION_RUN_RETENTION_MS,
    intervalMs: engine.AUTOMATION_RETENTION_SWEEP_INTERVAL_MS,
    batchSize: engine.AUTOMATION_RETENTION_BATCH,
  });
  const limits = { runsPerMinute: engine.AUTOMATION_RUNS_PER_MINUTE, chatRunsPerMinute: engine.AUTOMATION_CHAT_RUNS_PER_MINUTE };
  const intake = new EventIntake(
    nc,
    ns,
    prisma,
    store,
    limits,
    () => executor.due(),
    logger,
    engine.AUTOMATION_INTAKE_ACK_WAIT_MS,
    executor,
  );
  await startRpcService({
    name: 'automation',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: { handlers: bindHandlers(AUTOMATION_HANDLERS, { prisma, agent }) },
    start: async () => {
      await relay.start();
      metrics.start();
      await executor.start();
      await intake.start();
      retention.start();
    },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw`SELECT 1`), natsIndicator(nc), consumersIndicator()],
    },
    stop: [
      () => intake.stop(),
      () => retention.stop(),
      () => executor.stop(),
      () => metrics.stop(),
      () => relay.stop(),
      () => rpc.close(),
      () => http.close(),
    ],
    disconnect: [() => prisma.$disconnect()],
  });
}
