'use strict';
/**
 * The bench's throw-away world: a fresh migrated database, a unique NAMESPACE (its JetStream
 * streams and Redis lease keys are removed at the end), and sandbox phones that are paired and
 * CONNECTED on the sandbox network, made with the libs/testing factories.
 */
const { randomBytes } = require('node:crypto');
const { createOrg, createPhone, createToken, randomDigits } = require('@mapi/testing');
const { streamNames } = require('@mapi/events');

/** A paired, connected sandbox phone of `org`, with contacts (1:1 chats) that write to it. */
async function createSandboxPhone(prisma, pg, org, { contacts = 200, deleted = false } = {}) {
  const number = randomDigits();
  const phone = await createPhone(prisma, org.id, {
    connector: 'sandbox',
    org_phone: `${number}@c.us`,
    phone_name: 'Bench phone',
    ...(deleted ? { deleted_at: new Date() } : {}),
  });
  // What POST /v1/sandbox/phones/scan leaves behind: the network sees the phone paired and connected.
  await pg.query(`INSERT INTO sandbox_devices (phone_id, org_id, number, state) VALUES ($1, $2, $3, 'CONNECTED')`, [
    phone.phone_id,
    org.id,
    number,
  ]);
  const chats = Array.from({ length: contacts }, () => `${randomDigits()}@c.us`);
  return { phone_id: phone.phone_id, org_id: org.id, org_phone: phone.org_phone, number, chats };
}

async function createTenant(prisma) {
  const org = await createOrg(prisma, { plan: 'enterprise' });
  const { token } = await createToken(prisma, org.id);
  return { org, token };
}

/** The environment of the bench's service processes (production mode, quiet logs, health on loopback). */
const serviceEnv = ({ databaseUrl, natsUrl, redisUrl, namespace }) => ({
  ...process.env,
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  NATS_URL: natsUrl,
  NAMESPACE: namespace,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  HEALTH_HOST: '127.0.0.1',
});

/** A service's database URL naming it (application_name), so its Postgres backends can be told apart. */
const appDatabaseUrl = (databaseUrl, name) => {
  const u = new URL(databaseUrl);
  u.searchParams.set('application_name', name);
  return u.toString();
};

const newNamespace = () => `bench-phones-${randomBytes(4).toString('hex')}`;

/** Removes what the services created under the namespace outside Postgres. */
async function dropNamespace(nc, redis, namespace) {
  const jsm = await nc.jetstreamManager();
  const names = streamNames(namespace);
  for (const name of [names.ingest, names.events]) await jsm.streams.delete(name).catch(() => undefined);
  const keys = await redis.keys(`${namespace}:*`);
  if (keys.length) await redis.del(...keys);
}

module.exports = { createSandboxPhone, createTenant, newNamespace, dropNamespace, serviceEnv, appDatabaseUrl };
