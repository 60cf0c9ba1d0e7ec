'use strict';
/**
 * What the automation benches share: a throw-away database, Prisma client and NATS namespace with its
 * streams, each undone by `cleanups` (run in reverse by the caller's finally), and percentiles.
 */
const { createTestDatabase, testEnv, randomSuffix } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { ensureStreams } = require('@mapi/events');
const { connect } = require('nats');

async function openWorld(prefix, cleanups) {
  const namespace = `${prefix}${randomSuffix(3)}`;
  const db = await createTestDatabase(`mapi_bench_${prefix}`);
  cleanups.push(() => db.drop());
  const prisma = createPrismaClient({ url: db.url, poolSize: 4 });
  cleanups.push(() => prisma.$disconnect());
  const nc = await connect({ servers: testEnv.natsUrl() });
  cleanups.push(() => nc.drain());
  await ensureStreams(nc, namespace);
  return { namespace, db, prisma, nc };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

/** n, min, max and the given percentiles (as p50, p99, p999 …) of `xs`. */
function summary(xs, percentiles = [50, 90, 99]) {
  const s = [...xs].sort((a, b) => a - b);
  const out = { n: s.length };
  for (const p of percentiles) out[`p${String(p).replace('.', '')}`] = pct(s, p);
  return { ...out, max: s[s.length - 1], min: s[0] };
}

module.exports = { openWorld, summary };
