import type { Server } from 'node:http';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { startHealthServer, type HealthIndicator } from '../health/health';
import type { BoundRpcHandler } from '../nats/rpc-handlers';
import { NatsRpcServer, type NatsRpcServerOptions } from '../nats/rpc-server';
import { onShutdownSignal } from '../shutdown';

/** One step of a shutdown; steps run one after another, and a failure stops the rest (the process exits 1). */
export type ShutdownStep = () => unknown;

export interface RpcListenOptions extends Pick<NatsRpcServerOptions, 'maxRequestBytes' | 'chunkTimeoutMs'> {
  nc: NatsConnection;
  namespace: string;
  logger: Logger;
  /** NODE_ENV: replies are checked against their contracts in tests only (a cost in production). */
  nodeEnv: string;
  /** The service's handler table, bound to its parts (bindHandlers). */
  handlers: readonly BoundRpcHandler[];
}

/** An RPC server answering `handlers` in the service's queue group, already listening. */
export async function listenRpcServer(options: RpcListenOptions): Promise<NatsRpcServer> {
  const { nc, namespace, logger, nodeEnv, handlers, maxRequestBytes, chunkTimeoutMs } = options;
  const server = new NatsRpcServer({
    nc,
    namespace,
    handlers,
    logger,
    validateReplies: nodeEnv === 'test',
    maxRequestBytes,
    chunkTimeoutMs,
  });
  await server.listen();
  return server;
}

export interface RpcServiceOptions {
  /** The service's name, for the "<name> service ready" line. */
  name: string;
  nc: NatsConnection;
  namespace: string;
  logger: Logger;
  nodeEnv: string;
  /** What the service answers over NATS; left out by a process whose roles include no RPC (it still gets health and the shutdown). */
  rpc?: Pick<RpcListenOptions, 'handlers' | 'maxRequestBytes' | 'chunkTimeoutMs'>;
  /** Background work started once the RPC server listens, before the health server reports ready. */
  start?: () => unknown;
  health: {
    host: string;
    port: number;
    indicators: readonly HealthIndicator[];
  };
  /** More fields for the "service ready" line (after health_port). */
  readyFields?: Record<string, unknown>;
  /** Shutdown steps run before the RPC server closes (work that must stop before requests stop being taken). */
  beforeClose?: readonly ShutdownStep[];
  /** Shutdown steps run, in order, after the RPC server has closed (requests under way answered) and before NATS drains. */
  stop?: readonly ShutdownStep[];
  /** Shutdown steps run, in order, after NATS has drained: closing the service's own clients (Redis, Postgres…). */
  disconnect?: readonly ShutdownStep[];
  /** Registers the shutdown on SIGTERM/SIGINT; tests pass their own to run it without exiting the process. */
  registerShutdown?: (logger: Logger, shutdown: () => Promise<void>) => void;
}

export interface RpcService {
  /** undefined when no `rpc` was given. */
  server: NatsRpcServer | undefined;
  health: Server;
  isShuttingDown(): boolean;
}

/**
 * The wiring every NATS service repeats once its own parts are built: the RPC server listening,
 * background work started, the health server up, the "service ready" line, and one shutdown on
 * SIGTERM/SIGINT. The shutdown order is fixed because drain/crash behaviour depends on it:
 * readiness turns 503 → `beforeClose` → the RPC server closes (requests under way answered) →
 * `stop` (the service's own workers, in the order given) → NATS drains → `disconnect` → the
 * health server closes last, so liveness answers until the process exits.
 */
export async function startRpcService(options: RpcServiceOptions): Promise<RpcService> {
  const { name, nc, logger } = options;
  const server = options.rpc
    ? await listenRpcServer({ ...options.rpc, nc, namespace: options.namespace, logger, nodeEnv: options.nodeEnv })
    : undefined;
  await options.start?.();

  let shuttingDown = false;
  const health = await startHealthServer({ ...options.health, isShuttingDown: () => shuttingDown });
  const address = health.address();
  logger.info(
    { health_port: typeof address === 'object' && address ? address.port : null, ...options.readyFields },
    `${name} service ready`,
  );

  const runSteps = async (steps: readonly ShutdownStep[] = []) => {
    for (const step of steps) await step();
  };
  (options.registerShutdown ?? onShutdownSignal)(logger, async () => {
    shuttingDown = true;
    await runSteps(options.beforeClose);
    await server?.close(); // unsubscribes, waits for requests under way
    await runSteps(options.stop);
    await nc.drain().catch(() => undefined);
    await runSteps(options.disconnect);
    health.close();
  });
  return { server, health, isShuttingDown: () => shuttingDown };
}
