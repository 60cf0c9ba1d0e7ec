'use strict';
/**
 * The knowledge-base bench's database. By default a fresh one, dropped at the end. With BENCH_KB_KEEP_DB=1
 * a named one (mapi_bench_kb_keep_<total>_<org>) that is kept and reused by the next run with the same
 * scale: seeding 1M rows and building the 1M-row HNSW index take ≈ 14 min, the measurements a few.
 * A kept database is reused only if it is complete (all rows and the global HNSW index valid); otherwise it
 * is dropped and seeded again. Organizations are read back from it: the measured one is the one with
 * `orgEntries` rows (the seed's plan, bench/knowledge-base/seed.js, is deterministic, so the "asked"
 * questions regenerate the same).
 */
const { Client } = require('pg');

async function admin(testEnv, fn) {
  const c = new Client({ connectionString: testEnv.adminDatabaseUrl() });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Opens the bench database. Answers { db: {name, url, drop}, reused, orgs? } — orgs (measured first) when reused.
 * `keep`: false → createTestDatabase (dropped by the caller's cleanup); true → the named, kept database.
 */
async function openBenchDatabase({ keep, total, orgEntries, orgCount, testEnv, createTestDatabase, applyMigrations, hnswIndex, log }) {
  if (!keep) return { db: await createTestDatabase('mapi_bench_kb'), reused: false };
  const name = `mapi_bench_kb_keep_${total}_${orgEntries}`;
  const url = withDatabase(testEnv.adminDatabaseUrl(), name);
  const db = {
    name,
    url,
    drop: () => admin(testEnv, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
    kept: true,
  };
  const exists = await admin(testEnv, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
  if (exists) {
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      await applyMigrations({ url }); // new migrations of the branch, if any (expand-only)
      const idx = await c.query('SELECT i.indisvalid FROM pg_class x JOIN pg_index i ON i.indexrelid = x.oid WHERE x.relname = $1', [
        hnswIndex,
      ]);
      const counts = (
        await c.query('SELECT org_id::text AS org_id, count(*)::int AS n FROM knowledge_base_entries GROUP BY 1 ORDER BY 2 DESC')
      ).rows;
      const rows = counts.reduce((a, r) => a + r.n, 0);
      if (idx.rows[0]?.indisvalid && rows === total && counts.length === orgCount && counts[0].n === orgEntries) {
        log(`   reusing the kept database ${name} (${rows} rows, ${counts.length} organizations)`);
        return { db, reused: true, orgs: counts.map((r) => r.org_id) };
      }
      log(`   kept database ${name} is incomplete (${rows} rows, index valid: ${idx.rows[0]?.indisvalid}): seeding it again`);
    } finally {
      await c.end();
    }
    await db.drop();
  }
  await admin(testEnv, (c) => c.query(`CREATE DATABASE "${name}"`));
  await applyMigrations({ url });
  return { db, reused: false };
}

module.exports = { openBenchDatabase };
