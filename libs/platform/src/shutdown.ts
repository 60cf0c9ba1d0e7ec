import type { Logger } from 'pino';

/**
 * Runs `stop` once on SIGTERM or SIGINT (stop taking work, finish what is under way, close
 * connections), then exits; a second signal, or the deadline, exits at once.
 */
export function onShutdownSignal(logger: Logger, stop: () => Promise<void>, deadlineMs = 25_000): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown deadline passed; exiting');
      process.exit(1);
    }, deadlineMs).unref();
    stop()
      .then(() => process.exit(0))
      .catch((err) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      });
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
