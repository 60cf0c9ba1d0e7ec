'use strict';
/**
 * The Cloud API bench's stack: chats, phones, queue and api-gateway as the built processes on a
 * throw-away database and NATS namespace, Meta played by the fake Graph API (libs/testing), one org
 * with a token and one Cloud API phone, connected. `request` is a keep-alive HTTP client that times
 * each call; `restartQueue` kills the queue process (SIGKILL: a crash, jobs under way keep their lock
 * until it expires) and starts a new one. With `workerApart`, the queue runs as two processes — one
 * answering the queue's requests without send workers (QUEUE_WORKER_ENABLED=false), one running the
 * send workers (it answers requests too: the API part always runs) — and `restartQueue` kills and
 * restarts the workers' one only, so sends keep being accepted while it is away. With `graphDelayMs`,
 * the services reach the fake through a proxy here that holds each POST .../messages that long before
 * passing it on (Meta's round trip; the fake itself answers at once).
 */
const http = require('node:http');
const { randomBytes } = require('node:crypto');
const { connect } = require('nats');
const {
  AppProcess,
  createTestDatabase,
  createOrg,
  createToken,
  freePort,
  randomDigits,
  testEnv,
  startFakeGraphApi,
} = require('@mapi/testing');
const { ensureStreams, streamNames } = require('@mapi/events');
const { createPrismaClient } = require('@mapi/db');
const { waitFor } = require('../lib/waiting');

/** A proxy in front of the fake Graph API holding each message send `delayMs` (the rest passes at once): its URL. */
async function delayingProxy(target, delayMs) {
  const to = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const forward = () => {
        const out = http.request(
          {
            host: to.hostname,
            port: to.port,
            path: `${to.pathname.replace(/\/$/, '')}${req.url}`,
            method: req.method,
            headers: req.headers,
            agent,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        out.on('error', () => res.writeHead(502).end());
        out.end(Buffer.concat(chunks));
      };
      if (req.method === 'POST' && /\/messages(\?|$)/.test(req.url ?? '')) setTimeout(forward, delayMs);
      else forward();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve(agent.destroy()))),
  };
}

async function startCloudApiStack(cleanups, extraEnv = {}, { workerApart = false, graphDelayMs = 0 } = {}) {
  const graph = await startFakeGraphApi();
  cleanups.push(() => graph.stop());
  let graphUrl = graph.graphUrl;
  if (graphDelayMs > 0) {
    const proxy = await delayingProxy(graph.graphUrl, graphDelayMs);
    cleanups.push(() => proxy.stop());
    graphUrl = proxy.url;
  }
  const db = await createTestDatabase('mapi_bench_cloud_api');
  cleanups.push(() => db.drop());
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  cleanups.push(() => prisma.$disconnect());
  const nc = await connect({ servers: testEnv.natsUrl(), name: 'bench-cloud-api' });
  cleanups.push(() => nc.close());
  const namespace = `bench-cloud-${randomBytes(3).toString('hex')}`;
  await ensureStreams(nc, namespace);
  cleanups.push(async () => {
    const jsm = await nc.jetstreamManager();
    for (const s of Object.values(streamNames(namespace))) await jsm.streams.delete(s).catch(() => undefined);
  });
  const env = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATABASE_URL: db.url,
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    RATE_LIMIT_PER_SECOND: '1000000',
    SESSION_SCAN_MS: '500',
    QUEUE_PHONE_SCAN_MS: '500',
    CLOUD_API_SECRETS_KEY: randomBytes(32).toString('base64'),
    CLOUD_API_GRAPH_URL: graphUrl,
    ...extraEnv,
  };
  const running = {};
  cleanups.push(() => Promise.all(Object.values(running).map((p) => p.stop())));
  let gatewayPort;
  const start = async (name, key = name, ownEnv = {}) => {
    const healthPort = await freePort();
    const isGateway = name === 'api-gateway';
    if (isGateway) gatewayPort = await freePort();
    const proc = AppProcess.start(name, {
      ...env,
      ...ownEnv,
      HEALTH_PORT: String(healthPort),
      HEALTH_HOST: '127.0.0.1',
      ...(isGateway ? { PORT: String(gatewayPort), HOST: '127.0.0.1' } : {}),
    });
    running[key] = proc;
    await proc.waitReady(`http://127.0.0.1:${isGateway ? gatewayPort : healthPort}/health/ready`, 120_000);
    return proc;
  };
  const startWorkers = () => (workerApart ? start('queue', 'queue-worker') : start('queue'));
  for (const app of ['chats', 'phones']) await start(app);
  if (workerApart) await start('queue', 'queue', { QUEUE_WORKER_ENABLED: 'false' });
  await startWorkers();
  await start('api-gateway');

  const org = await createOrg(prisma, { plan: 'enterprise' });
  const { token } = await createToken(prisma, org.id);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  const request = (method, p, body, headers = {}, raw) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const data = raw ?? (body ? Buffer.from(JSON.stringify(body)) : undefined);
      const req = http.request(
        `http://127.0.0.1:${gatewayPort}/v1${p}`,
        {
          method,
          agent,
          headers: { authorization: `Bearer ${token}`, ...(data ? { 'content-type': 'application/json' } : {}), ...headers },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode, ms: performance.now() - t0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', (e) => resolve({ status: `response ${e.code ?? e.message}`, ms: performance.now() - t0 }));
        },
      );
      req.on('error', (e) => resolve({ status: `request ${e.code ?? e.message}`, ms: performance.now() - t0 }));
      req.setTimeout(60_000, () => req.destroy(new Error('client timeout 60 s')));
      req.end(data);
    });
  const json = async (method, p, body, headers) => {
    const r = await request(method, p, body, headers);
    return { status: r.status, body: r.body ? JSON.parse(r.body) : undefined };
  };

  // one Cloud API phone, connected once the fake accepts its token
  const number = { phone_number_id: randomDigits(), display_phone_number: '15550100000', waba_id: randomDigits() };
  const creds = {
    phone_number_id: number.phone_number_id,
    waba_id: number.waba_id,
    access_token: `EAAG${randomBytes(24).toString('hex')}`,
    app_secret: randomBytes(16).toString('hex'),
    verify_token: `verify-${randomBytes(6).toString('hex')}`,
  };
  graph.numbers.set(number.phone_number_id, { token: creds.access_token, display_phone_number: '+1 555-010-0000', verified_name: 'Bench' });
  const created = await json('POST', '/phones/create', { phone_name: 'Bench line', cloud_api: creds });
  if (created.status !== 201) throw new Error(`phone not created: ${created.status} ${JSON.stringify(created.body)}`);
  const phoneId = created.body.phone_id;
  await waitFor(
    async () => (await json('GET', '/phones', null, { 'x-phone': phoneId })).body?.wa_state === 'CONNECTED',
    60_000,
    'connected',
  );

  const restartQueue = async () => {
    await running[workerApart ? 'queue-worker' : 'queue'].kill();
    return startWorkers();
  };
  return { graph, prisma, db, org, phoneId, number, creds, request, json, restartQueue, running };
}

module.exports = { startCloudApiStack };
