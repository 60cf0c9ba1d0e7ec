#!/usr/bin/env node
'use strict';
/**
 * Knowledge-base benchmark (docs/benchmarks.md, "Knowledge base"):
 *  1. throughput of the default (offline) embedding provider, one thread, and the cost of embedding a query;
 *  2. seeding BENCH_KB_TOTAL entries (BENCH_KB_ORG of them in the measured organization, the rest even over
 *     BENCH_KB_ORGS-1 others), every one with a real vector of the offline provider (worker threads, one
 *     binary COPY), then the HNSW index built once from the migration's own definition;
 *  3. the exact answers (HNSW off) of the measured organization, for recall;
 *  then for each index layout (BENCH_KB_VARIANTS, default "global,org": the migration's global HNSW index
 *  alone, then also the organization's own partial HNSW index, built by the service's KbOrgIndexRepository):
 *   - the search statement alone (the repository's own SQL, captured from KbEntryRepository), sequential,
 *     for several hnsw.ef_search values, with recall@k against the exact answers, EXPLAIN ANALYZE;
 *   - the search use case in process (query embedding + the repository on the service's client, as the service runs it);
 *   - POST /v1/knowledge-base/search through the real api-gateway and knowledge-base processes
 *     (HTTP → gateway → NATS → knowledge-base → Postgres), closed loop at 1 and at 10 connections.
 *
 * Usage: npx nx run-many -t build -p knowledge-base-feature knowledge-base api-gateway testing db
 *        node bench/knowledge-base/run.js
 * Knobs (env): BENCH_KB_TOTAL (1000000), BENCH_KB_ORG (100000), BENCH_KB_ORGS (10), BENCH_KB_K (5),
 *   BENCH_KB_EMBED_TEXTS (20000), BENCH_KB_SEED_WORKERS (2), BENCH_KB_MAINTENANCE_WORK_MEM (8GB),
 *   BENCH_KB_PARALLEL_WORKERS (1: the leader + 1 = both cores), BENCH_KB_SQL_QUERIES (400),
 *   BENCH_KB_RECALL_QUERIES (50), BENCH_KB_EF_SWEEP (40,64,100,200), BENCH_DURATION (10 s per load run),
 *   BENCH_KB_ROUNDS (3), BENCH_KB_TIMEOUT_S (1500: hard limit, then everything is stopped and dropped),
 *   KB_SEARCH_EF_SEARCH (the service's setting; default the service's default), TEST_ADMIN_DATABASE_URL, REDIS_URL, NATS_URL,
 *   BENCH_KB_VARIANTS (global,org), BENCH_KB_ORG_INDEX_MWM (maintenance_work_mem of the organization index build;
 *   default the service's KB_ORG_INDEX_MAINTENANCE_WORK_MEM), BENCH_KB_KEEP_DB=1 (keep the seeded database and
 *   reuse it next time at the same scale: bench-db.js), BENCH_KB_SEED_ONLY=1 (stop after seeding).
 * Loopback only. Its own database (dropped at the end), processes and NATS namespace are removed at the end,
 * also on failure or timeout. Results: stdout and bench/results/knowledge-base-<time>.json.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

const ROOT = path.join(__dirname, '..', '..');
const KB_DIST = path.join(ROOT, 'libs/knowledge-base-feature/dist');
for (const f of [
  'libs/testing/dist/index.js',
  'libs/knowledge-base-feature/dist/index.js',
  'apps/api-gateway/dist/main.js',
  'apps/knowledge-base/dist/main.js',
]) {
  if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: build first (see the usage above)`);
}
const { Client } = require('pg');
const { createTestDatabase, createOrg, createToken, freePort, testEnv } = require(path.join(ROOT, 'libs/testing/dist/index.js'));
const { createPrismaClient, applyMigrations } = require(path.join(ROOT, 'libs/db/dist/index.js'));
const kbLib = require(path.join(KB_DIST, 'index.js'));
const { SearchKbEntries } = require(path.join(KB_DIST, 'usecases/search-entries/search-entries.usecase.js'));
const { startNode, waitReady, stopAll, stopProc, cpuMeter, waitIdle } = require(path.join(ROOT, 'bench/messages/procs.js'));
const { summarizeProfiles } = require(path.join(ROOT, 'bench/lib/cpuprofile-summary.js'));
const { makeTexts } = require('./texts');
const { seed, orgQuestions, planOrgs, HNSW_INDEX } = require('./seed');
const { openBenchDatabase } = require('./bench-db');
const { summary, timed, httpLoad, load, round } = require('./measure');
const { embeddingThroughput: measureEmbedding, sqlAtEf, foundRate } = require('./quality');

const {
  OfflineHashEmbedder,
  KbEntryRepository,
  KbOrgIndexRepository,
  KbOrgIndexDirectory,
  searchSql,
  orgIndexName,
  createKbPrismaClient,
  toVectorLiteral,
  loadKnowledgeBaseConfig,
} = kbLib;
const num = (name, def) => Number(process.env[name] ?? def);
const TOTAL = num('BENCH_KB_TOTAL', 1_000_000);
const ORG_ENTRIES = num('BENCH_KB_ORG', 100_000);
const ORGS = num('BENCH_KB_ORGS', 10);
const K = num('BENCH_KB_K', 5);
const EMBED_TEXTS = num('BENCH_KB_EMBED_TEXTS', 20_000);
const SEED_WORKERS = num('BENCH_KB_SEED_WORKERS', 2);
const MAINTENANCE_WORK_MEM = process.env.BENCH_KB_MAINTENANCE_WORK_MEM ?? '8GB';
const PARALLEL_WORKERS = num('BENCH_KB_PARALLEL_WORKERS', 1);
const SQL_QUERIES = num('BENCH_KB_SQL_QUERIES', 400);
const RECALL_QUERIES = num('BENCH_KB_RECALL_QUERIES', 50);
const DURATION = num('BENCH_DURATION', 10);
const ROUNDS = num('BENCH_KB_ROUNDS', 3);
const TIMEOUT_S = num('BENCH_KB_TIMEOUT_S', 1500);
const EF = loadKnowledgeBaseConfig(process.env).KB_SEARCH_EF_SEARCH; // what the service will use on the global index
const OWN_EF = loadKnowledgeBaseConfig(process.env).KB_SEARCH_EF_SEARCH_OWN_INDEX; // … and for an organization with its own
const EF_SWEEP = [...new Set([...(process.env.BENCH_KB_EF_SWEEP ?? '40,64,100,200').split(',').map(Number), EF])].sort((a, b) => a - b);
const CPU_PROF = process.env.BENCH_KB_CPU_PROF === '1';
const KEEP_DB = process.env.BENCH_KB_KEEP_DB === '1';
const SEED_ONLY = process.env.BENCH_KB_SEED_ONLY === '1';
/**
 * Which index layouts to measure, in this order: global (the migration's index only), org-vector (+ the
 * organization's own index of the earlier kind, over the full vectors: `kb_entries_hnsw_org_<id>`, built here with that
 * definition, as an upgraded database may still have it), org (the organization's own index as the service
 * builds it now, over halfvec, by its KbOrgIndexRepository; an org-vector index is dropped once it is built, as
 * the service's job does). Org layouts are searched with KB_SEARCH_EF_SEARCH_OWN_INDEX and the statement of
 * their index's kind; `@<ef>` runs the variant's searches (the service process restarted with both settings
 * at <ef>, and the in-process client) with that hnsw.ef_search instead of the service's, e.g. org@100.
 */
const VARIANTS = (process.env.BENCH_KB_VARIANTS ?? 'global,org').split(',');
const ORG_INDEX_MWM = process.env.BENCH_KB_ORG_INDEX_MWM ?? loadKnowledgeBaseConfig(process.env).KB_ORG_INDEX_MAINTENANCE_WORK_MEM;
const QUERY_COUNT = 300;

const log = (...a) => console.log(...a);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** The repository's exact search statement (searchSql: what KbEntryRepository.search runs). */
let walk = 'vector'; // the statement's kind: 'halfvec' for an organization with a halfvec index of its own
function searchStatement(orgId, vectorLiteral) {
  const sql = searchSql(orgId, vectorLiteral, K, {}, walk);
  return { text: sql.text, values: sql.values };
}

async function main(state) {
  const out = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, load_at_start: load() },
    config: { TOTAL, ORG_ENTRIES, ORGS, K, EF, EF_SWEEP, DURATION, ROUNDS, SEED_WORKERS, MAINTENANCE_WORK_MEM, PARALLEL_WORKERS },
  };
  const texts = makeTexts(42);
  log(`1. offline embedding throughput (load ${out.machine.load_at_start.join(' ')})`);
  out.embedding = measureEmbedding(new OfflineHashEmbedder(), texts, EMBED_TEXTS);
  log('  ', out.embedding);

  const opened = await openBenchDatabase({
    keep: KEEP_DB,
    total: TOTAL,
    orgEntries: ORG_ENTRIES,
    orgCount: ORGS,
    testEnv,
    createTestDatabase,
    applyMigrations,
    hnswIndex: HNSW_INDEX,
    log,
  });
  const db = (state.db = opened.db);
  state.logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kb-bench-'));
  const prisma = (state.prisma = createPrismaClient({ url: db.url, poolSize: 2 }));
  const client = (state.client = new Client({ connectionString: db.url }));
  client.on('error', () => undefined); // the forced drop at the end ends this connection
  await client.connect();
  const orgs = opened.orgs ?? [];
  if (!opened.reused) for (let i = 0; i < ORGS; i++) orgs.push((await createOrg(prisma)).id);
  const token = (await createToken(prisma, orgs[0])).token;
  const org = orgs[0];
  out.pg = (
    await client.query(
      'SELECT version() AS v, (SELECT extversion FROM pg_extension WHERE extname = $1) AS pgvector, current_setting($2) AS shared_buffers',
      ['vector', 'shared_buffers'],
    )
  ).rows[0];

  log(
    `2. seeding ${TOTAL} entries (${ORG_ENTRIES} in the measured organization, ${ORGS - 1} others), all with offline vectors; HNSW built after loading`,
  );
  let orgOf;
  let chunkSize;
  if (opened.reused) {
    ({ orgOf, chunkSize } = { orgOf: planOrgs(TOTAL, ORG_ENTRIES, ORGS), chunkSize: 10_000 }); // the seed's deterministic plan
    out.seed = { reused: db.name };
  } else {
    let seeded;
    ({ orgOf, chunkSize, ...seeded } = await seed(client, {
      orgIds: orgs,
      total: TOTAL,
      orgEntries: ORG_ENTRIES,
      workers: SEED_WORKERS,
      embedderPath: path.join(KB_DIST, 'embedding/offline-hash-embedder.js'),
      maintenanceWorkMem: MAINTENANCE_WORK_MEM,
      parallelWorkers: PARALLEL_WORKERS,
      log,
    }));
    out.seed = { ...seeded, load_after: load() };
  }
  log('  ', out.seed);
  if (SEED_ONLY) return out;
  // A kept database may hold a previous run's organization indexes: the first variant measures without.
  const orgIndexes = new KbOrgIndexRepository(db.url);
  await orgIndexes.withLock(async (s) => {
    for (const idx of await s.list()) await s.drop(idx.name);
  });

  // The service's connections: createKbPrismaClient sets the HNSW options per connection; check they arrive.
  const kbPrisma = (state.kbPrisma = createKbPrismaClient(db.url, 10, { efSearch: EF, perTransaction: false }));
  const shown = await kbPrisma.$queryRawUnsafe(
    "SELECT current_setting('hnsw.iterative_scan') AS iterative_scan, current_setting('hnsw.ef_search') AS ef_search",
  );
  out.service_settings = shown[0];
  if (out.service_settings.iterative_scan !== 'relaxed_order' || Number(out.service_settings.ef_search) !== EF)
    throw new Error(`service settings not applied: ${JSON.stringify(shown)}`);

  const e = new OfflineHashEmbedder();
  const queries = Array.from({ length: QUERY_COUNT }, () => texts.query());
  const vectors = queries.map((q) => toVectorLiteral(e.embedOne(q)));

  log(`3. exact answers of the measured organization, for recall (load ${load().join(' ')})`);
  await client.query('SET hnsw.iterative_scan = relaxed_order');
  // "asked": an entry's own question, as a customer would type it; its entry is the answer to find.
  const askedQuestions = orgQuestions(orgOf, chunkSize, RECALL_QUERIES);
  const asked = { questions: askedQuestions, vectors: askedQuestions.map((q) => toVectorLiteral(e.embedOne(q))) };
  const exact = { random: [], asked: [] };
  await client.query('BEGIN');
  await client.query('SET LOCAL enable_indexscan = off'); // no HNSW: an exact scan of the organization's rows
  const exactMs = await timed(RECALL_QUERIES, async (i) => exact.random.push((await client.query(searchStatement(org, vectors[i]))).rows));
  for (const v of asked.vectors) exact.asked.push((await client.query(searchStatement(org, v))).rows);
  const exactPlan = (
    await client.query({ ...searchStatement(org, vectors[0]), text: `EXPLAIN ${searchStatement(org, vectors[0]).text}` })
  ).rows.map((r) => r['QUERY PLAN']);
  await client.query('COMMIT');
  out.exact_scan = { ...summary(exactMs), asked_found_at_k: foundRate(exact.asked, asked.questions), plan: exactPlan.join('\n') };
  log('   exact scan (no HNSW):', { ...out.exact_scan, plan: undefined });

  // The service's processes, started once: a variant changes only the indexes (the organization's own
  // index is built by the service's code, KbOrgIndexRepository, as its periodic job would).
  log(`4. starting the api-gateway and knowledge-base processes (load ${load().join(' ')})`);
  const namespace = `kbbench${randomBytes(3).toString('hex')}`;
  const [port, kbHealth] = [await freePort(), await freePort()];
  const env = {
    ...process.env,
    DATABASE_URL: db.url,
    REDIS_URL: testEnv.redisUrl(),
    NATS_URL: testEnv.natsUrl(),
    NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    RATE_LIMIT_PER_SECOND: '1000000',
    HEALTH_HOST: '127.0.0.1',
    MEDIA_STORAGE_ROOT: state.logDir,
    KB_EMBEDDING_SWEEP_INTERVAL_MS: '0',
    KB_ORG_INDEX_INTERVAL_MS: '0', // the bench builds the organization's index itself, between the variants
  };
  const profDir = path.join(state.logDir, 'profiles');
  const nodeArgs = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
  // efOverride: both ef settings of the service at that value; null: the service's own (env or defaults).
  const startKb = async (efOverride) => {
    const efEnv = efOverride === null ? {} : { KB_SEARCH_EF_SEARCH: String(efOverride), KB_SEARCH_EF_SEARCH_OWN_INDEX: String(efOverride) };
    const proc = startNode('knowledge-base', path.join(ROOT, 'apps/knowledge-base/dist/main.js'), {
      env: { ...env, HEALTH_PORT: String(kbHealth), ...efEnv },
      logFile: path.join(state.logDir, 'kb.log'),
      cwd: ROOT,
      nodeArgs,
    });
    await waitReady(proc, `http://127.0.0.1:${kbHealth}/health/ready`, { timeoutMs: 60_000 });
    return proc;
  };
  let kbEf = null;
  let kb = await startKb(kbEf);
  const gw = startNode('api-gateway', path.join(ROOT, 'apps/api-gateway/dist/main.js'), {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    logFile: path.join(state.logDir, 'gw.log'),
    cwd: ROOT,
    nodeArgs,
  });
  await waitReady(gw, `http://127.0.0.1:${port}/health/ready`, { timeoutMs: 60_000 });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const bodies = queries.map((q) => JSON.stringify({ query: q, k: K }));
  const check = (status, body) => status === 200 && JSON.parse(body).count === K;
  const common = { port, path: '/v1/knowledge-base/search', headers, bodies, check };
  const dbPids = async () =>
    (await client.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows.map(
      (r) => r.pid,
    );
  const meter = cpuMeter({ 'api-gateway': () => [gw.child.pid], 'knowledge-base': () => [kb.child.pid], postgres: dbPids });
  // In process as in the service: the directory (refreshed after each build) picks the statement's kind.
  const directory = new KbOrgIndexDirectory(kbPrisma);
  const usecaseFor = (repo) => new SearchKbEntries(repo, e, { entries: repo, directory });
  const usecases = new Map([[EF, usecaseFor(new KbEntryRepository(kbPrisma))]]);
  const usecaseAt = (ef) => {
    if (!usecases.has(ef)) {
      const c = createKbPrismaClient(db.url, 10, { efSearch: ef, perTransaction: false });
      (state.extraClients ??= []).push(c);
      usecases.set(ef, usecaseFor(new KbEntryRepository(c)));
    }
    return usecases.get(ef);
  };
  const built = {}; // layout → the organization index it built
  const ORG_LAYOUTS = ['org-vector', 'org'];
  /** org-vector: the earlier full-vector definition, as an upgraded database has it; org: the service's own code. */
  const buildOrgIndex = async (layout) => {
    const name = await orgIndexes.withLock(async (s) => {
      if (layout === 'org') return s.create(org, ORG_INDEX_MWM);
      const legacy = orgIndexName(org, 'vector');
      await client.query(`SET maintenance_work_mem = '${ORG_INDEX_MWM}'`);
      await client.query(
        `CREATE INDEX CONCURRENTLY ${legacy} ON knowledge_base_entries USING hnsw (embedding vector_cosine_ops) WHERE org_id = '${org}'::uuid`,
      );
      await client.query('RESET maintenance_work_mem');
      return legacy;
    });
    if (name !== orgIndexName(org, layout === 'org' ? 'halfvec' : 'vector')) throw new Error('could not take the organization-index lock');
    if (layout === 'org' && built['org-vector']) await orgIndexes.withLock((s) => s.drop(built['org-vector'].name)); // replaced, as the job does
    await client.query('ANALYZE knowledge_base_entries');
    await directory.refresh();
    return name;
  };

  out.variants = {};
  for (const variant of VARIANTS) {
    const [layout, efText] = variant.split('@');
    const efOverride = efText ? Number(efText) : null;
    const ef = efOverride ?? (layout === 'global' ? EF : OWN_EF);
    const v = (out.variants[variant] = { load_at_start: load(), ef_search: ef });
    const usecase = usecaseAt(ef); // in process: the repository at the ef the service uses for this organization
    if (layout !== 'global' && !ORG_LAYOUTS.includes(layout)) throw new Error(`unknown variant ${variant}`);
    const later = ['global', ...ORG_LAYOUTS].slice(['global', ...ORG_LAYOUTS].indexOf(layout) + 1);
    if (later.some((l) => built[l])) throw new Error('list the variants in the order global, org-vector, org');
    if (built[layout]) v.org_index = built[layout];
    else if (layout !== 'global') {
      const started = Date.now();
      const name = await buildOrgIndex(layout);
      const size = await client.query('SELECT pg_size_pretty(pg_relation_size($1::regclass)) AS size', [name]);
      built[layout] = {
        name,
        build_seconds: round((Date.now() - started) / 1000, 1),
        size: size.rows[0].size,
        maintenance_work_mem: ORG_INDEX_MWM,
      };
      v.org_index = { ...built[layout], just_built: true };
      log(`   organization index built:`, v.org_index);
    }
    walk = directory.kind(org) ?? 'vector';
    v.walk = walk;
    // Restarted with the variant's settings, and after the index is built (the service reads which
    // organizations have one at start, then every 30 s).
    if (efOverride !== kbEf || v.org_index?.just_built) {
      await stopProc(kb);
      kb = await startKb(efOverride);
      kbEf = efOverride;
    }
    log(`== variant ${variant}: the search SQL alone (load ${load().join(' ')})`);
    v.sql = [];
    const sweep = [...new Set([...EF_SWEEP, ef])].sort((a, b) => a - b);
    const sweepDone = Object.values(out.variants).find((o) => o !== v && o.layout === layout)?.sql;
    if (sweepDone)
      v.sql = sweepDone; // same layout measured already: not again
    else
      for (const x of sweep) {
        v.sql.push(await sqlAtEf(client, (v) => searchStatement(org, v), SQL_QUERIES, vectors, exact, asked, x));
        log('  ', v.sql[v.sql.length - 1]);
      }
    v.layout = layout;
    await client.query(`SET hnsw.ef_search = ${ef}`);
    const st = searchStatement(org, vectors[0]);
    v.explain = (await client.query({ ...st, text: `EXPLAIN (ANALYZE, BUFFERS) ${st.text}` })).rows.map((r) => r['QUERY PLAN']).join('\n');
    v.index_used = (v.explain.match(/Index Scan using (\S+)/) ?? [])[1] ?? null;
    log(v.explain);
    if (layout !== 'global' && v.index_used !== v.org_index.name)
      throw new Error(`the planner did not pick the organization's index: ${v.index_used}`);

    log(`== variant ${variant}: the search use case in process (embedding + the repository on the service's client, ef_search ${ef})`);
    for (const q of queries) await usecase.execute({ ctx: { org_id: org }, body: { query: q, k: K } });
    v.in_process = summary(
      await timed(SQL_QUERIES, (i) => usecase.execute({ ctx: { org_id: org }, body: { query: queries[i % queries.length], k: K } })),
    );
    log('  ', v.in_process);
    const expectedFirst = (await usecase.execute({ ctx: { org_id: org }, body: { query: queries[0], k: K } })).data.map(
      (d) => d.context_id,
    );

    log(`== variant ${variant}: POST /v1/knowledge-base/search through the gateway (load ${load().join(' ')})`);
    const first = await fetch(`http://127.0.0.1:${port}/v1/knowledge-base/search`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: queries[0], k: K }),
    });
    const firstBody = await first.json();
    if (first.status !== 200 || JSON.stringify(firstBody.data.map((d) => d.context_id)) !== JSON.stringify(expectedFirst)) {
      throw new Error(`gateway answer differs from the use case: ${first.status} ${JSON.stringify(firstBody).slice(0, 300)}`);
    }
    await httpLoad({ ...common, connections: 10, seconds: 3 }); // warm-up
    v.gateway = { c1: [], c10: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const c of [1, 10]) {
        await waitIdle([gw.child.pid, kb.child.pid]);
        const loadBefore = load();
        await meter.start();
        const res = await httpLoad({ ...common, connections: c, seconds: DURATION });
        const cpu = await meter.stop();
        const perReqMs = (x) => round((x * 1000) / Math.max(1, res.requests), 3);
        res.cpu_ms_per_request = {
          gateway: perReqMs(cpu['api-gateway']),
          knowledge_base: perReqMs(cpu['knowledge-base']),
          postgres: perReqMs(cpu.postgres),
          load_generator: perReqMs(cpu['load generator']),
        };
        res.machine_busy_pct = round(cpu['machine busy %'], 1);
        res.load = loadBefore;
        v.gateway[`c${c}`].push(res);
        log(`   ${variant} round ${r + 1}, ${c} connection(s):`, res);
      }
    }
    const med = (runs, key) => median(runs.map((x) => x[key]));
    const base = v.sql.find((x) => x.ef_search === ef) ?? v.sql[0];
    v.verdict = {};
    for (const c of ['c1', 'c10']) {
      const runs = v.gateway[c];
      v.verdict[c] = {
        req_per_s: med(runs, 'req_per_s'),
        p50_ms: med(runs, 'p50_ms'),
        p95_ms: med(runs, 'p95_ms'),
        p99_ms: med(runs, 'p99_ms'),
        postgres_cpu_ms: median(runs.map((x) => x.cpu_ms_per_request.postgres)),
        p99_vs_sql_p99: round(med(runs, 'p99_ms') / base.p99_ms),
        p50_vs_in_process_p50: round(med(runs, 'p50_ms') / v.in_process.p50_ms),
        aim_p99_under_50ms: med(runs, 'p99_ms') < 50,
      };
    }
    v.load_at_end = load();
    log(`== variant ${variant} verdict (medians of the rounds):`, v.verdict);
  }
  out.machine.load_at_end = load();
  if (CPU_PROF) {
    const names = { [kb.child.pid]: 'knowledge-base', [gw.child.pid]: 'api-gateway' };
    await stopAll(); // SIGTERM: the processes write their profiles
    out.cpu_profiles = summarizeProfiles(profDir, names);
    for (const [name, p] of Object.entries(out.cpu_profiles)) {
      log(`   ${name}: ${p.byPackage.map((x) => `${x.name} ${x.pct.toFixed(1)}%`).join(', ')}`);
      for (const r of p.top.slice(0, 15)) log(`     ${r.pct.toFixed(1).padStart(5)}%  ${r.name}  ${r.where}`);
    }
  }
  for (const [name, v] of Object.entries(out.variants)) log(`verdict, ${name} (medians of the rounds):`, v.verdict);
  return out;
}

const state = {};
let cleaning;
function cleanup() {
  cleaning ??= (async () => {
    await stopAll().catch(() => undefined);
    // Dropped first, WITH (FORCE): ends our backends even in the middle of a statement (an index build).
    if (!state.db?.kept) await state.db?.drop().catch((err) => console.error('could not drop the bench database:', err));
    const bounded = (p) => Promise.race([p.catch(() => undefined), new Promise((r) => setTimeout(r, 5_000).unref())]);
    await bounded(state.client?.end() ?? Promise.resolve());
    await bounded(state.prisma?.$disconnect() ?? Promise.resolve());
    await bounded(state.kbPrisma?.$disconnect() ?? Promise.resolve());
    for (const c of state.extraClients ?? []) await bounded(c.$disconnect());
    if (state.logDir) fs.rmSync(state.logDir, { recursive: true, force: true });
  })();
  return cleaning;
}

const hardLimit = setTimeout(() => {
  console.error(`hard timeout (${TIMEOUT_S} s): stopping, dropping the bench database`);
  cleanup().finally(() => process.exit(2));
}, TIMEOUT_S * 1000);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => cleanup().finally(() => process.exit(130)));

main(state)
  .then(async (out) => {
    await cleanup();
    clearTimeout(hardLimit);
    const resultsDir = path.join(ROOT, 'bench/results');
    fs.mkdirSync(resultsDir, { recursive: true });
    const file = path.join(resultsDir, `knowledge-base-${out.at.replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(file, JSON.stringify(out, null, 2));
    log(`results: ${path.relative(ROOT, file)}`);
  })
  .catch(async (error) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  });
