// The outbox relay as the services run it (woken by the inserting statement's NOTIFY, LISTEN on the
// database URL), in a process of its own so that its CPU is not the bench's. Env: DATABASE_URL,
// NATS_URL, NAMESPACE. Prints "relay ready" once running; SIGTERM stops it.
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
  const relay = new OutboxRelay(prisma, nc, process.env.NAMESPACE, logger, { listenUrl: process.env.DATABASE_URL });
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
