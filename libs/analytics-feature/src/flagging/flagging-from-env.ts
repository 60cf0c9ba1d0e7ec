import { FlagMessageRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { ChatCompletionsClient, type NatsRpcClient } from '@mapi/platform';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { flagModelOn, loadFlagConfig } from './flag-config';
import { FlagIntake } from './flag-intake';
import { FlagWorker } from './flag-worker';

/**
 * Flagging of the analytics service, configured from FLAG_* and the AI agent's model (AI_AGENT_*): the
 * intake, the worker, and whether a model is on (model rules flag only then; the other rules always).
 */
export function flaggingFromEnv(
  nc: NatsConnection,
  namespace: string,
  prisma: PrismaClient,
  rpc: NatsRpcClient,
  logger: Logger,
  listenUrl: string,
): { intake: FlagIntake; worker: FlagWorker; modelOn: boolean } {
  const c = loadFlagConfig();
  const modelOn = flagModelOn(c);
  const model = modelOn
    ? new ChatCompletionsClient({
        baseUrl: c.AI_AGENT_BASE_URL as string,
        model: c.AI_AGENT_MODEL as string,
        apiKey: c.AI_AGENT_API_KEY,
        timeoutMs: c.FLAG_MODEL_TIMEOUT_MS,
        maxTokens: 200,
        temperature: 0,
      })
    : null;
  const worker = new FlagWorker(
    { prisma, model, modelAttempts: c.FLAG_MODEL_ATTEMPTS, flag: (req) => rpc.call(FlagMessageRpc, req as never) },
    logger,
    { batch: c.FLAG_BATCH, leaseMs: c.FLAG_LEASE_MS, idlePollMs: c.FLAG_IDLE_POLL_MS, fallbackPollMs: c.FLAG_FALLBACK_POLL_MS, listenUrl },
  );
  const intake = new FlagIntake(nc, namespace, prisma, logger, {
    minuteMs: c.FLAG_MINUTE_MS,
    lateCutoffMs: c.FLAG_LATE_CUTOFF_MS,
    modelOn,
    onArmed: (at) => worker.armed(at),
  });
  return { intake, worker, modelOn };
}
