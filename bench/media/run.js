#!/usr/bin/env node
'use strict';
/**
 * Media benchmarks (issue 7): POST /v1/media/migrate-url/batch with 1000 URLs through the gateway
 * (aim: p99 under 50 ms), and file serving throughput of the media app (private 2 KiB file with its
 * token, public 2 KiB file, 1 MiB file, 64 KiB Range requests).
 *
 * The batch is also sent to a single-process baseline (baseline-server.js: same use case, no gateway,
 * no NATS) in the same run, in alternating rounds, so the gateway/baseline ratio survives a machine
 * shared with other work; the load average is recorded with every case. The service's own work
 * (request JSON parse, use case, reply JSON) is timed in this process too.
 *
 * Usage: npx nx run-many -t build && node bench/media/run.js
 * Knobs (env): BENCH_DURATION (10 s per case), BENCH_CONNECTIONS (10), BENCH_ROUNDS (3),
 *   BENCH_ONLY=batch (skip file serving), BENCH_CPU_PROF=<dir> (a .cpuprofile per server process,
 *   see cpu-profile.js and profile-summary.js), servers via TEST_ADMIN_DATABASE_URL, REDIS_URL, NATS_URL.
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

const { spawn } = require('node:child_process');
const DURATION = Number(process.env.BENCH_DURATION || 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const LEGACY = 'https://legacy.example.supabase.co/storage/v1/object/public';

const run = (opts) =>
  new Promise((resolve, reject) => autocannon({ duration: DURATION, ...opts }, (err, r) => (err ? reject(err) : resolve(r))));
/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
const cpuSeconds = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
};
const load = () => os.loadavg()[0].toFixed(1);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const runWithLoad = async (opts) => {
  const l = load();
  const r = await run(opts);
  r.loadBefore = l;
  return r;
};
const row = (name, r, loadBefore = r.loadBefore) => ({
  case: name,
  'load 1m': `${loadBefore}→${load()}`,
  'req/s': Math.round(r.requests.average),
  'MB/s': +(r.throughput.average / 1e6).toFixed(1),
  'p50 ms': r.latency.p50,
  'p99 ms': r.latency.p99,
  errors: r.errors + r.non2xx,
});

async function main() {
  const cleanups = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };
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
      DATABASE_URL: db.url,
      REDIS_URL: testEnv.redisUrl(),
      NATS_URL: testEnv.natsUrl(),
      NAMESPACE: `bm${randomBytes(3).toString('hex')}`,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '1000000',
      MEDIA_JWT_KEYS: JSON.stringify([{ kid: 'b1', secret: randomBytes(32).toString('hex') }]),
      ...(process.env.BENCH_CPU_PROF
        ? { NODE_OPTIONS: `--require ${path.join(__dirname, 'cpu-profile.js')}`, BENCH_CPU_PROF: path.resolve(process.env.BENCH_CPU_PROF) }
        : {}),
    };
    const media = AppProcess.start('media', {
      ...env,
      MEDIA_HTTP_PORT: String(mediaPort),
      MEDIA_HTTP_HOST: '127.0.0.1',
      MEDIA_BASE_URL: mediaUrl,
      MEDIA_STORAGE_ROOT: root,
      MEDIA_LEGACY_STORAGE_URL: LEGACY,
      MEDIA_JWT_KEYS: env.MEDIA_JWT_KEYS,
    });
    const gateway = AppProcess.start('api-gateway', { ...env, PORT: String(port), HOST: '127.0.0.1' });
    cleanups.push(() => Promise.all([media.stop(), gateway.stop()]));
    const basePort = await freePort();
    const baseline = spawn(process.execPath, [path.join(__dirname, 'baseline-server.js')], {
      env: {
        ...process.env,
        ...env,
        PORT: String(basePort),
        ORG_ID: org.id,
        MEDIA_BASE_URL: mediaUrl,
        MEDIA_LEGACY_STORAGE_URL: LEGACY,
        MEDIA_JWT_KEYS: env.MEDIA_JWT_KEYS,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(() => new Promise((r) => (baseline.exitCode !== null ? r() : (baseline.once('exit', r), baseline.kill('SIGTERM')))));
    await new Promise((resolve, reject) => {
      baseline.stdout.on('data', (d) => String(d).includes('listening') && resolve());
      baseline.once('exit', (code) => reject(new Error(`baseline exited (${code})`)));
    });
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
    const pub = await fetch(`http://127.0.0.1:${port}/v1/media/migrate-url`, {
      ...batch,
      body: JSON.stringify({ url: urls[1], access: 'public' }),
    }).then((r) => r.json());

    const baseBatch = { ...batch, url: `http://127.0.0.1:${basePort}/v1/media/migrate-url/batch` };
    const baseProbe = await fetch(baseBatch.url, baseBatch).then((r) => r.json());
    const stripJwt = (b) =>
      JSON.stringify({ ...b, results: b.results.map((r) => ({ ...r, url: r.url && r.url.replace(/\?jwt=[^&]+$/, '') })) });
    if (stripJwt(baseProbe) !== stripJwt(probe)) throw new Error('baseline and gateway answer differently (tokens aside)');

    const stages = await serviceStages(urls, org.id, mediaUrl, JSON.parse(env.MEDIA_JWT_KEYS));
    console.log('service work in-process (200 runs after 50 warm-up):', stages);

    const results = [];
    const rounds = [];
    await run({ ...batch, duration: 2, connections: 2 }); // warm-up
    await run({ ...baseBatch, duration: 2, connections: 2 });
    for (let round = 0; round < ROUNDS; round++) {
      const r = {};
      const order = round % 2 ? ['baseline', 'gateway'] : ['gateway', 'baseline'];
      for (const conns of [1, 4]) {
        for (const which of order) {
          const l = load();
          const pids = which === 'gateway' ? [gateway.child.pid, media.child.pid] : [baseline.pid];
          const cpuBefore = pids.map(cpuSeconds);
          const result = await run({ ...(which === 'gateway' ? batch : baseBatch), connections: conns });
          const cpu = pids.map((pid, i) => cpuSeconds(pid) - cpuBefore[i]);
          r[`${which} ${conns}`] = row(`batch 1000 URLs, ${which}, ${conns} conn (round ${round + 1})`, result, l);
          // CPU per request is far less sensitive to other work on the machine than latency is.
          r[`${which} ${conns}`]['CPU ms/req'] =
            which === 'gateway'
              ? `${((1000 * cpu[0]) / result.requests.total).toFixed(1)} gw + ${((1000 * cpu[1]) / result.requests.total).toFixed(1)} media`
              : ((1000 * cpu[0]) / result.requests.total).toFixed(1);
          results.push(r[`${which} ${conns}`]);
        }
      }
      rounds.push(r);
    }
    const summary = [1, 4].flatMap((conns) =>
      ['gateway', 'baseline'].map((which) => ({
        case: `batch 1000 URLs, ${which}, ${conns} conn (median of ${ROUNDS})`,
        'req/s': median(rounds.map((r) => r[`${which} ${conns}`]['req/s'])),
        'p50 ms': median(rounds.map((r) => r[`${which} ${conns}`]['p50 ms'])),
        'p99 ms': median(rounds.map((r) => r[`${which} ${conns}`]['p99 ms'])),
        'CPU ms/req': median(
          rounds.map((r) => r[`${which} ${conns}`]['CPU ms/req'].split(' + ').reduce((a, x) => a + parseFloat(x), 0)),
        ).toFixed(1),
        'p99 ratio gw/base':
          which === 'gateway'
            ? +median(rounds.map((r) => r[`gateway ${conns}`]['p99 ms'] / r[`baseline ${conns}`]['p99 ms'])).toFixed(2)
            : undefined,
        'req/s ratio gw/base':
          which === 'gateway'
            ? +median(rounds.map((r) => r[`gateway ${conns}`]['req/s'] / r[`baseline ${conns}`]['req/s'])).toFixed(2)
            : undefined,
      })),
    );
    console.table(results);
    console.table(summary);
    if (process.env.BENCH_ONLY === 'batch') return save({ stages, results, summary });
    await run({ url: privateUrl, duration: 2, connections: CONNECTIONS });
    results.push(row(`GET private 2 KiB (jwt), ${CONNECTIONS} conn`, await runWithLoad({ url: privateUrl, connections: CONNECTIONS })));
    results.push(row(`GET public 2 KiB, ${CONNECTIONS} conn`, await runWithLoad({ url: pub.url, connections: CONNECTIONS })));
    results.push(
      row(
        `GET private 1 MiB, ${CONNECTIONS} conn`,
        await runWithLoad({ url: `${mediaUrl}/app/media/message-media/${org.id}/video/big.mp4?jwt=${jwt}`, connections: CONNECTIONS }),
      ),
    );
    results.push(
      row(
        `GET 64 KiB Range of 1 MiB, ${CONNECTIONS} conn`,
        await runWithLoad({
          url: `${mediaUrl}/app/media/message-media/${org.id}/video/big.mp4?jwt=${jwt}`,
          connections: CONNECTIONS,
          headers: { range: 'bytes=65536-131071' },
        }),
      ),
    );
    console.table(results.slice(-4));
    save({ stages, results, summary });
  } finally {
    await cleanup();
  }
}

function save(data) {
  {
    const out = path.join(__dirname, '..', 'results', `media-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(
      out,
      JSON.stringify({ at: new Date().toISOString(), duration_s: DURATION, rounds: ROUNDS, cpus: os.cpus().length, ...data }, null, 2),
    );
    console.log(`written ${path.relative(process.cwd(), out)}`);
  }
}

/** The media service's own work for one batch, in this process: request JSON parse, use case, reply JSON. */
async function serviceStages(urls, orgId, mediaBaseUrl, keys) {
  const { MediaLinks, MediaLinkMigrator, MediaTokenService, MigrateMediaUrlsBatch } = require('@mapi/media-feature/internals');
  const links = new MediaLinks({ mediaBaseUrl, legacyStorageUrl: LEGACY, buckets: ['message-media', 'kb-attachments'] });
  const settings = { get: async () => ({ accessDefault: 'private', linkExpirySeconds: 86400 }) }; // the DB read is not timed here
  const usecase = new MigrateMediaUrlsBatch(new MediaLinkMigrator(links, settings), new MediaTokenService(keys), {
    publish: async () => undefined,
  });
  const request = JSON.stringify({ ctx: { org_id: orgId }, body: { urls } });
  const t = { parse: [], usecase: [], reply: [] };
  let cpu;
  for (let i = 0; i < 250; i++) {
    if (i === 50) cpu = process.cpuUsage();
    const a = performance.now();
    const req = JSON.parse(request);
    const b = performance.now();
    const res = await usecase.execute(req);
    const c = performance.now();
    Buffer.from(JSON.stringify(res));
    const d = performance.now();
    if (i >= 50) {
      t.parse.push(b - a);
      t.usecase.push(c - b);
      t.reply.push(d - c);
    }
  }
  const used = process.cpuUsage(cpu);
  const out = { 'CPU ms per batch (all three)': +((used.user + used.system) / 1000 / 200).toFixed(2) };
  for (const [k, xs] of Object.entries(t)) {
    xs.sort((x, y) => x - y);
    out[`${k} p50 ms`] = +xs[xs.length >> 1].toFixed(2);
    out[`${k} p99 ms`] = +xs[Math.floor(xs.length * 0.99)].toFixed(2);
  }
  return out;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
