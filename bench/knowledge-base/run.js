#!/usr/bin/env node
'use strict';
/**
 * Knowledge-base benchmark:
 *  1. embedding throughput of the built-in offline provider (texts/s, one process);
 *  2. POST /v1/knowledge-base/search p50/p99 through the gateway (api-gateway → NATS → knowledge-base
 *     → pgvector HNSW), for one organization holding BENCH_KB_ORG entries among BENCH_KB_TOTAL;
 *     plus the same SQL timed directly (no HTTP/NATS), to split database time from transport.
 *
 * Usage: npx nx run-many -t build && node bench/knowledge-base/run.js
 * Knobs (env): BENCH_KB_TOTAL (1000000), BENCH_KB_ORG (100000), BENCH_KB_ORGS (10: the others share the rest),
 *   BENCH_KB_EMBED_TEXTS (20000), BENCH_DURATION (10 s), BENCH_CONNECTIONS (10), BENCH_KB_SQL_QUERIES (500),
 *   TEST_ADMIN_DATABASE_URL, REDIS_URL, NATS_URL.
 * Loopback only; the database (throw-away), the processes and the namespace are removed at the end,
 * also on failure. Results: stdout and bench/results/knowledge-base-<time>.json.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes, randomUUID } = require('node:crypto');

const ROOT = path.join(__dirname, '..', '..');
for (const f of ['libs/testing/dist/index.js', 'libs/knowledge-base-feature/dist/index.js', 'apps/api-gateway/dist/main.js', 'apps/knowledge-base/dist/main.js']) {
  if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: build first (npx nx run-many -t build)`);
}
const autocannon = require('autocannon');
const { Client } = require('pg');
const { createTestDatabase, createOrg, createToken, freePort } = require(path.join(ROOT, 'libs/testing/dist/index.js'));
const { createPrismaClient } = require(path.join(ROOT, 'libs/db/dist/index.js'));
const { OfflineHashEmbedder } = require(path.join(ROOT, 'libs/knowledge-base-feature/dist/index.js'));
const { startNode, waitReady, stopAll } = require(path.join(ROOT, 'bench/lib/procs.js'));

const num = (name, def) => Number(process.env[name] ?? def);
const TOTAL = num('BENCH_KB_TOTAL', 1_000_000);
const ORG_ENTRIES = num('BENCH_KB_ORG', 100_000);
const ORGS = num('BENCH_KB_ORGS', 10);
const EMBED_TEXTS = num('BENCH_KB_EMBED_TEXTS', 20_000);
const DURATION = num('BENCH_DURATION', 10);
const CONNECTIONS = num('BENCH_CONNECTIONS', 10);
const SQL_QUERIES = num('BENCH_KB_SQL_QUERIES', 500);

// Synthetic FAQ text from a vocabulary, so vectors spread like real short texts do.
const VOCAB = ('refund order delivery shipping card payment invoice account password reset menu vegan table booking hours open ' +
  'close sunday monday address parking warranty return exchange size color price discount coupon gift voucher subscription ' +
  'cancel upgrade plan support phone email chat agent ticket store branch city country abroad customs tax receipt bank ' +
  'transfer cash wallet points loyalty member app login error update install battery screen repair broken replace').split(' ');
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
const sentence = (n) => Array.from({ length: n }, () => VOCAB[Math.floor(rand() * VOCAB.length)]).join(' ');
const faqText = () => `How do I ${sentence(4)}?\n${sentence(14)}.`;

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function embeddingThroughput() {
  const e = new OfflineHashEmbedder();
  const texts = Array.from({ length: EMBED_TEXTS }, faqText);
  for (let i = 0; i < 500; i++) e.embedOne(texts[i]); // warm-up
  const started = process.hrtime.bigint();
  for (const t of texts) e.embedOne(t);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { texts: EMBED_TEXTS, seconds: +seconds.toFixed(2), texts_per_second: Math.round(EMBED_TEXTS / seconds) };
}

async function seedEntries(client, orgIds) {
  const e = new OfflineHashEmbedder();
  const plan = [{ org: orgIds[0], n: ORG_ENTRIES }];
  const rest = TOTAL - ORG_ENTRIES;
  for (let i = 1; i < orgIds.length; i++) plan.push({ org: orgIds[i], n: Math.floor(rest / (orgIds.length - 1)) + (i <= rest % (orgIds.length - 1) ? 1 : 0) });
  // Interleave organizations, as rows of many organizations arrive mixed in real life.
  const remaining = plan.map((p) => p.n);
  const BATCH = 2_000;
  let done = 0;
  const started = Date.now();
  while (done < TOTAL) {
    const orgs = [], questions = [], answers = [], vectors = [];
    for (let i = 0; i < BATCH && done < TOTAL; i++) {
      let k = Math.floor(rand() * plan.length);
      while (remaining[k] === 0) k = (k + 1) % plan.length;
      remaining[k]--;
      const text = faqText();
      const [q, a] = text.split('\n');
      orgs.push(plan[k].org);
      questions.push(q);
      answers.push(a);
      vectors.push(`[${e.embedOne(text).join(',')}]`);
      done++;
    }
    await client.query(
      `INSERT INTO knowledge_base_entries (org_id, type, question, answer, is_active, embedding, embedding_model)
       SELECT o, 'faq', q, a, true, v::vector, 'offline-hash-v1' FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS t(o, q, a, v)`,
      [orgs, questions, answers, vectors],
    );
    if (done % 100_000 < BATCH) process.stdout.write(`  seeded ${done}/${TOTAL} (${Math.round((Date.now() - started) / 1000)} s)\n`);
  }
  return Math.round((Date.now() - started) / 1000);
}

function cannon(opts) {
  return new Promise((resolve, reject) => autocannon({ ...opts, timeout: 30 }, (err, res) => (err ? reject(err) : resolve(res))));
}

async function main() {
  const out = { at: new Date().toISOString(), machine: { cpus: os.cpus().length, node: process.version }, config: { TOTAL, ORG_ENTRIES, ORGS, DURATION, CONNECTIONS } };
  console.log('1. offline embedding throughput');
  out.embedding = embeddingThroughput();
  console.log('  ', out.embedding);

  const db = await createTestDatabase('mapi_bench_kb');
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-bench-'));
  const prisma = createPrismaClient({ url: db.url, poolSize: 2 });
  const client = new Client({ connectionString: db.url });
  try {
    await client.connect();
    const orgs = [];
    for (let i = 0; i < ORGS; i++) orgs.push((await createOrg(prisma)).id);
    const token = (await createToken(prisma, orgs[0])).token;
    console.log(`2. seeding ${TOTAL} entries (${ORG_ENTRIES} in the measured organization), HNSW index built after loading`);
    await client.query('DROP INDEX knowledge_base_entries_embedding_hnsw_idx');
    out.seed_seconds = await seedEntries(client, orgs);
    await client.query(`SET maintenance_work_mem = '${process.env.BENCH_KB_MAINTENANCE_WORK_MEM ?? '2GB'}'`);
    await client.query('SET max_parallel_maintenance_workers = 1');
    let t = Date.now();
    await client.query('CREATE INDEX knowledge_base_entries_embedding_hnsw_idx ON knowledge_base_entries USING hnsw (embedding vector_cosine_ops)');
    out.hnsw_build_seconds = Math.round((Date.now() - t) / 1000);
    await client.query('VACUUM ANALYZE knowledge_base_entries');
    console.log(`   seeded in ${out.seed_seconds} s; HNSW built in ${out.hnsw_build_seconds} s`);

    const e = new OfflineHashEmbedder();
    const queries = Array.from({ length: 200 }, () => sentence(4));
    console.log('3. the search SQL directly (iterative HNSW scan, ef_search 100)');
    await client.query('SET hnsw.iterative_scan = relaxed_order; SET hnsw.ef_search = 100');
    const sqlMs = [];
    const sql = `WITH nearest AS MATERIALIZED (SELECT context_id, embedding <=> $2::vector AS distance FROM knowledge_base_entries
                 WHERE org_id = $1::uuid AND embedding IS NOT NULL ORDER BY embedding <=> $2::vector LIMIT 5) SELECT * FROM nearest ORDER BY distance`;
    let found = 0;
    for (let i = 0; i < SQL_QUERIES; i++) {
      const v = `[${e.embedOne(queries[i % queries.length]).join(',')}]`;
      t = process.hrtime.bigint();
      const r = await client.query(sql, [orgs[0], v]);
      sqlMs.push(Number(process.hrtime.bigint() - t) / 1e6);
      found += r.rows.length;
    }
    sqlMs.sort((a, b) => a - b);
    out.sql = { queries: SQL_QUERIES, p50_ms: +pct(sqlMs, 50).toFixed(2), p99_ms: +pct(sqlMs, 99).toFixed(2), avg_rows: +(found / SQL_QUERIES).toFixed(2) };
    const plan = await client.query(`EXPLAIN ${sql}`, [orgs[0], `[${e.embedOne('refund').join(',')}]`]);
    out.sql.plan_uses_hnsw = plan.rows.some((r) => /hnsw_idx/.test(r['QUERY PLAN']));
    console.log('  ', out.sql);

    console.log(`4. POST /v1/knowledge-base/search through the gateway (${CONNECTIONS} connections, ${DURATION} s)`);
    const namespace = `kbbench${randomBytes(3).toString('hex')}`;
    const [port, kbHealth] = [await freePort(), await freePort()];
    const env = { ...process.env, DATABASE_URL: db.url, NAMESPACE: namespace, LOG_LEVEL: 'warn', NODE_ENV: 'production', RATE_LIMIT_PER_SECOND: '1000000', HEALTH_HOST: '127.0.0.1', KB_STORAGE_DIR: logDir };
    const kb = startNode('knowledge-base', path.join(ROOT, 'apps/knowledge-base/dist/main.js'), { env: { ...env, HEALTH_PORT: String(kbHealth) }, logFile: path.join(logDir, 'kb.log'), cwd: ROOT });
    const gw = startNode('api-gateway', path.join(ROOT, 'apps/api-gateway/dist/main.js'), { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, logFile: path.join(logDir, 'gw.log'), cwd: ROOT });
    await waitReady(kb, `http://127.0.0.1:${kbHealth}/health/ready`);
    await waitReady(gw, `http://127.0.0.1:${port}/health/ready`);
    const requests = queries.map((q) => ({ method: 'POST', path: '/v1/knowledge-base/search', body: JSON.stringify({ query: q, k: 5 }) }));
    const common = { url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, requests };
    await cannon({ ...common, duration: 2 }); // warm-up
    const r = await cannon({ ...common, duration: DURATION });
    out.gateway = { req_per_s: Math.round(r.requests.average), p50_ms: r.latency.p50, p99_ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
    console.log('  ', out.gateway);
    out.aim_search_p99_under_50ms = r.latency.p99 < 50;
  } finally {
    await stopAll();
    await client.end().catch(() => undefined);
    await prisma.$disconnect().catch(() => undefined);
    await db.drop();
    fs.rmSync(logDir, { recursive: true, force: true });
  }
  const resultsDir = path.join(ROOT, 'bench/results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `knowledge-base-${out.at.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify(out, null, 2));
  console.log(`results: ${path.relative(ROOT, file)}`);
}

process.on('SIGINT', () => stopAll().then(() => process.exit(130)));
main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
