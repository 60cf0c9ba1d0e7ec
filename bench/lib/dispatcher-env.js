'use strict';
const { testEnv, randomSuffix } = require('@mapi/testing');

/**
 * The webhooks dispatcher's settings for a bench: its database, the machine's NATS under a fresh
 * namespace (`<prefix><random>`), health on 127.0.0.1:healthPort, 127.0.0.1 allowed as an address, and
 * the per-endpoint limits lifted (one receiver or broker stands for many customers); any WEBHOOK_* of
 * the bench's own environment wins.
 */
function dispatcherBenchEnv(databaseUrl, healthPort, namespacePrefix) {
  return {
    DATABASE_URL: databaseUrl,
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: `${namespacePrefix}${randomSuffix(3)}`,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HEALTH_PORT: String(healthPort),
    HEALTH_HOST: '127.0.0.1',
    WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    WEBHOOK_ENDPOINT_RATE_PER_SECOND: '100000',
    WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: '10000',
    WEBHOOK_CONCURRENCY: '128',
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('WEBHOOK_'))),
  };
}

module.exports = { dispatcherBenchEnv };
