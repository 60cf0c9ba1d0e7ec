// An OutboxRelay in a process of its own, so tests and the benchmark can kill it (SIGKILL) at any
// moment. Env: DATABASE_URL, NATS_URL, NAMESPACE. Prints "relay ready" once running.
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
  // The services' relays poll every 100 ms (their default); the same here unless told otherwise.
  const relay = new OutboxRelay(prisma, nc, process.env.NAMESPACE, logger, {
    intervalMs: Number(process.env.OUTBOX_RELAY_INTERVAL_MS || 100),
  });
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
