#!/usr/bin/env node
'use strict';
/**
 * Media benchmarks (issue 7): POST /v1/media/migrate-url/batch with 1000 URLs through the gateway
 * (aim: p99 under 50 ms), and file serving throughput of the media app (private 2 KiB file with its
 * token, public 2 KiB file, 1 MiB file, 64 KiB Range requests).
 *
 * Usage: npx nx run-many -t build && node bench/media/run.js
 * Knobs (env): BENCH_DURATION (10 s per case), BENCH_CONNECTIONS (10), BENCH_BATCH_CONNECTIONS (1 and 4),
 *   servers via TEST_ADMIN_DATABASE_URL, REDIS_URL, NATS_URL.
 * Loopback only. The database, the storage folder and the processes are throw-away and removed on exit.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const autocannon = require('autocannon');
const { createTestDatabase, freePort, testEnv, AppProcess, createOrg, createToken } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { LocalFsStorage } = require('@mapi/storage');

const DURATION = Number(process.env.BENCH_DURATION || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const LEGACY = 'https://legacy.example.supabase.co/storage/v1/object/public';

const run = (opts) => new Promise((resolve, reject) => autocannon({ duration: DURATION, ...opts }, (err, r) => (err ? reject(err) : resolve(r))));
const row = (name, r) => ({
  case: name,
  'req/s': Math.round(r.requests.average),
  'MB/s': +(r.throughput.average / 1e6).toFixed(1),
  'p50 ms': r.latency.p50,
  'p99 ms': r.latency.p99,
  errors: r.errors + r.non2xx,
});

async function main() {
  const cleanups = [];
  const cleanup = async () => { for (const c of cleanups.reverse()) await c().catch(() => undefined); };
  process.once('SIGINT', () => cleanup().then(() => process.exit(130)));
  try {
    const db = await createTestDatabase('mapi_bench_media');
    cleanups.push(() => db.drop());
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'mapi-bench-media-'));
    cleanups.push(async () => fs.rmSync(root, { recursive: true, force: true }));
    const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
    cleanups.push(() => prisma.$disconnect());

    const org = await createOrg(prisma);
    const { token } = await createToken(prisma, org.id);
    const storage = new LocalFsStorage(root);
    const small = randomBytes(2048);
    for (let i = 0; i < 1000; i++) await storage.write({ bucket: 'message-media', name: `${org.id}/chat/m${i}/photo ${i}.jpg` }, small);
    await storage.write({ bucket: 'message-media', name: `${org.id}/video/big.mp4` }, randomBytes(1 << 20));

    const [port, mediaPort] = [await freePort(), await freePort()];
    const mediaUrl = `http://127.0.0.1:${mediaPort}`;
    const env = {
      DATABASE_URL: db.url, REDIS_URL: testEnv.redisUrl(), NATS_URL: testEnv.natsUrl(), NAMESPACE: `bm${randomBytes(3).toString('hex')}`,
      NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '1000000',
    };
    const media = AppProcess.start('media', {
      ...env, MEDIA_HTTP_PORT: String(mediaPort), MEDIA_HTTP_HOST: '127.0.0.1', MEDIA_BASE_URL: mediaUrl, MEDIA_STORAGE_ROOT: root,
      MEDIA_LEGACY_STORAGE_URL: LEGACY, MEDIA_JWT_KEYS: JSON.stringify([{ kid: 'b1', secret: randomBytes(32).toString('hex') }]),
    });
    const gateway = AppProcess.start('api-gateway', { ...env, PORT: String(port), HOST: '127.0.0.1' });
    cleanups.push(() => Promise.all([media.stop(), gateway.stop()]));
    await Promise.all([media.waitReady(`${mediaUrl}/health/ready`), gateway.waitReady(`http://127.0.0.1:${port}/health/ready`)]);

    const urls = Array.from({ length: 1000 }, (_, i) => `${LEGACY}/message-media/${org.id}%2Fchat%2Fm${i}%2Fphoto%20${i}.jpg`);
    const batch = {
      url: `http://127.0.0.1:${port}/v1/media/migrate-url/batch`,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ urls }),
    };
    const probe = await fetch(batch.url, batch).then((r) => r.json());
    if (probe.migrated_count !== 1000) throw new Error(`batch probe failed: ${JSON.stringify(probe).slice(0, 300)}`);
    const privateUrl = probe.results[0].url;
    const jwt = new URL(privateUrl).searchParams.get('jwt');
    const pub = await fetch(`http://127.0.0.1:${port}/v1/media/migrate-url`, { ...batch, body: JSON.stringify({ url: urls[1], access: 'public' }) }).then((r) => r.json());

    const results = [];
    await run({ ...batch, duration: 2, connections: 2 }); // warm-up
    results.push(row('batch 1000 URLs, 1 connection', await run({ ...batch, connections: 1 })));
    results.push(row('batch 1000 URLs, 4 connections', await run({ ...batch, connections: 4 })));
    await run({ url: privateUrl, duration: 2, connections: CONNECTIONS });
    results.push(row(`GET private 2 KiB (jwt), ${CONNECTIONS} conn`, await run({ url: privateUrl, connections: CONNECTIONS })));
    results.push(row(`GET public 2 KiB, ${CONNECTIONS} conn`, await run({ url: pub.url, connections: CONNECTIONS })));
    results.push(row(`GET private 1 MiB, ${CONNECTIONS} conn`, await run({ url: `${mediaUrl}/app/media/message-media/${org.id}/video/big.mp4?jwt=${jwt}`, connections: CONNECTIONS })));
    results.push(row(`GET 64 KiB Range of 1 MiB, ${CONNECTIONS} conn`, await run({
      url: `${mediaUrl}/app/media/message-media/${org.id}/video/big.mp4?jwt=${jwt}`, connections: CONNECTIONS, headers: { range: 'bytes=65536-131071' },
    })));
    console.table(results);
    const out = path.join(__dirname, '..', 'results', `media-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), duration_s: DURATION, cpus: os.cpus().length, results }, null, 2));
    console.log(`written ${path.relative(process.cwd(), out)}`);
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
