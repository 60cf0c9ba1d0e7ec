// An OutboxRelay in a process of its own, so tests and the benchmarks can kill it (SIGKILL) at any
// moment and its CPU is not theirs. Env: DATABASE_URL, NATS_URL, NAMESPACE; RELAY_LISTEN=1 wakes it by
// the inserting statement's NOTIFY (LISTEN on the database URL), as the services run it, instead of
// polling every OUTBOX_RELAY_INTERVAL_MS (100). Prints "relay ready" once running; SIGTERM stops it.
'use strict';
const { createPrismaClient } = require('@mapi/db');
const { OutboxRelay, ensureStreams } = require('@mapi/events');
const { connect } = require('nats');
const pino = require('pino');

async function main() {
  const logger = pino({ level: 'warn' });
  const prisma = createPrismaClient({ url: process.env.DATABASE_URL, poolSize: 4 });
  const nc = await connect({ servers: process.env.NATS_URL || 'nats://127.0.0.1:4222' });
  await ensureStreams(nc, process.env.NAMESPACE);
  const relay = new OutboxRelay(
    prisma,
    nc,
    process.env.NAMESPACE,
    logger,
    process.env.RELAY_LISTEN === '1'
      ? { listenUrl: process.env.DATABASE_URL }
      : { intervalMs: Number(process.env.OUTBOX_RELAY_INTERVAL_MS || 100) },
  );
  await relay.start();
  process.stdout.write('relay ready\n');
  const stop = async () => {
    await relay.stop();
    await nc.drain();
    await prisma.$disconnect();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
