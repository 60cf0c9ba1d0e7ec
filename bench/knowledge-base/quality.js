'use strict';
/** Quality and embedding measures of the knowledge-base bench (run.js): recall@k against exact answers. */
const { summary, timed, round } = require('./measure');

/** Throughput of one embedder on FAQ-sized texts, one thread, and the cost of embedding a query. */
function embeddingThroughput(e, texts, EMBED_TEXTS) {
  const all = Array.from({ length: EMBED_TEXTS }, () => texts.faq()).map(({ question, answer }) => `${question}\n${answer}`);
  for (let i = 0; i < 500; i++) e.embedOne(all[i]); // warm-up
  const started = process.hrtime.bigint();
  for (const t of all) e.embedOne(t);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const queryUs = [];
  for (let i = 0; i < 2000; i++) {
    const q = texts.query();
    const t = process.hrtime.bigint();
    e.embedOne(q);
    queryUs.push(Number(process.hrtime.bigint() - t) / 1e3);
  }
  const q = summary(queryUs);
  return {
    texts: EMBED_TEXTS,
    seconds: round(seconds),
    texts_per_second: Math.round(EMBED_TEXTS / seconds),
    query_embed_us: { p50: q.p50_ms, p99: q.p99_ms },
  };
}

/**
 * Quality of one set of answers against the exact ones: recall@K (a result counts when it is at least as
 * near as the exact K-th: ties at the boundary are equally right) and the mean score lost over the K results.
 */
function quality(got, exact) {
  let hits = 0;
  let possible = 0;
  let gap = 0;
  const meanScore = (rows) => rows.reduce((a, r) => a + 1 - Number(r.distance), 0) / Math.max(1, rows.length);
  for (let i = 0; i < exact.length; i++) {
    const kth = Number(exact[i][exact[i].length - 1]?.distance ?? Infinity);
    hits += Math.min(exact[i].length, got[i].filter((r) => Number(r.distance) <= kth + 1e-6).length);
    possible += exact[i].length;
    gap += meanScore(exact[i]) - meanScore(got[i]);
  }
  return { recall_at_k: round(hits / Math.max(1, possible), 4), mean_score_lost: round(gap / Math.max(1, exact.length), 4) };
}

/** Share of "asked" queries (an entry's own question) whose entry is among the K results. */
const foundRate = (got, asked) =>
  round(got.filter((rows, i) => rows.some((r) => r.question === asked[i])).length / Math.max(1, asked.length), 4);

/** Sequential SQL of the repository (`statement(vector)`) at one ef_search, plus its quality against the exact answers. */
async function sqlAtEf(client, statement, SQL_QUERIES, vectors, exact, asked, ef) {
  await client.query(`SET hnsw.ef_search = ${ef}`);
  for (const v of vectors) await client.query(statement(v)); // warm the cache for this setting
  let rows = 0;
  const ms = await timed(SQL_QUERIES, async (i) => {
    rows += (await client.query(statement(vectors[i % vectors.length]))).rows.length;
  });
  const run = async (vs) => {
    const got = [];
    for (const v of vs) got.push((await client.query(statement(v))).rows);
    return got;
  };
  const gotRandom = await run(vectors.slice(0, exact.random.length));
  const gotAsked = await run(asked.vectors);
  return {
    ef_search: ef,
    ...summary(ms),
    avg_rows: round(rows / SQL_QUERIES),
    random_queries: quality(gotRandom, exact.random),
    asked_queries: { ...quality(gotAsked, exact.asked), found_at_k: foundRate(gotAsked, asked.questions) },
  };
}

module.exports = { embeddingThroughput, quality, foundRate, sqlAtEf };
