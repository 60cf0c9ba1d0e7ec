'use strict';
/**
 * A prototype of pre-aggregated reads on the seeded data (not the service's schema: tables of the bench database
 * only), to size the change the aim needs (docs/services/analytics.md, "Not yet"):
 *  - response-time histograms with log-spaced buckets (relative accuracy ALPHA: bucket i holds (γ^(i-1), γ^i] ms,
 *    γ = (1+α)/(1−α), its value read as 2γ^i/(γ+1)), per (organization, UTC hour, phone, first/next) and per UTC day;
 *  - active chats per (organization, UTC day, phone, chat).
 * Each read is timed once cold and then as p50 / p99 over `rounds` runs; the percentiles are compared with the exact
 * percentile_cont of the same samples (nearest rank in the histogram: a value within α of a sample of the asked rank).
 */
const ALPHA = 0.02;
const GAMMA = (1 + ALPHA) / (1 - ALPHA);

async function buildPrototype(pg) {
  const lnG = Math.log(GAMMA);
  const bucket = `ceil(ln(greatest(response_ms, 1)) / ${lnG})::smallint`;
  const t = Date.now();
  await pg.query(`CREATE TABLE bench_rt_hour AS
    SELECT org_id, date_trunc('hour', incoming_at) AS hour, phone_id, is_next, ${bucket} AS bucket, count(*)::int AS n
    FROM analytics_responses GROUP BY 1, 2, 3, 4, 5`);
  await pg.query(`CREATE INDEX ON bench_rt_hour (org_id, hour)`);
  await pg.query(`CREATE TABLE bench_rt_day AS
    SELECT org_id, date_trunc('day', hour) AS day, phone_id, is_next, bucket, sum(n)::int AS n FROM bench_rt_hour GROUP BY 1, 2, 3, 4, 5`);
  await pg.query(`CREATE INDEX ON bench_rt_day (org_id, day)`);
  await pg.query(`CREATE TABLE bench_chat_day AS
    SELECT DISTINCT org_id, date_trunc('day', slot) AS day, phone_id, chat_id FROM analytics_chat_slots`);
  await pg.query(`CREATE INDEX ON bench_chat_day (org_id, day, phone_id, chat_id)`);
  await pg.query(`VACUUM ANALYZE bench_rt_hour, bench_rt_day, bench_chat_day`);
  const sizes = await pg.query(
    `SELECT relname, reltuples::bigint AS rows, pg_size_pretty(pg_total_relation_size(oid)) AS size FROM pg_class
     WHERE relkind = 'r' AND relname LIKE 'bench_%' ORDER BY relname`,
  );
  console.log(`\nprototype tables built in ${((Date.now() - t) / 1000).toFixed(0)} s (α = ${ALPHA}, γ = ${GAMMA.toFixed(5)}):`);
  for (const r of sizes.rows) console.log(`  ${r.relname}: ${r.rows} rows, ${r.size}`);
}

/** Median and p90 of first and next responses from summed histogram rows (nearest rank). */
const fromHistogram = (rows) => `
  WITH h AS (${rows}),
  c AS (SELECT is_next, bucket, sum(n) OVER (PARTITION BY is_next ORDER BY bucket) AS cum, sum(n) OVER (PARTITION BY is_next) AS total FROM h)
  SELECT is_next, max(total)::int AS count,
    2 * power(${GAMMA}, min(bucket) FILTER (WHERE cum >= ceil(0.5 * total))) / ${GAMMA + 1} AS median,
    2 * power(${GAMMA}, min(bucket) FILTER (WHERE cum >= ceil(0.9 * total))) / ${GAMMA + 1} AS p90
  FROM c GROUP BY is_next ORDER BY is_next`;

function prototypeQueries(orgId, from, to, tz) {
  const days = `SELECT is_next, bucket, sum(n) AS n FROM bench_rt_day WHERE org_id = '${orgId}' AND day >= $1 AND day < $2 GROUP BY 1, 2`;
  return {
    'exact percentiles (today)': {
      sql: `SELECT is_next, count(*)::int AS count, percentile_cont(0.5) WITHIN GROUP (ORDER BY response_ms) AS median,
              percentile_cont(0.9) WITHIN GROUP (ORDER BY response_ms) AS p90
            FROM analytics_responses WHERE org_id = '${orgId}' AND incoming_at >= $1 AND incoming_at < $2 GROUP BY is_next ORDER BY is_next`,
      params: [from, to],
    },
    'histogram totals (day rows)': { sql: fromHistogram(days), params: [from, to] },
    'histogram totals (hour rows)': {
      sql: fromHistogram(
        `SELECT is_next, bucket, sum(n) AS n FROM bench_rt_hour WHERE org_id = '${orgId}' AND hour >= $1 AND hour < $2 GROUP BY 1, 2`,
      ),
      params: [from, to],
    },
    'histogram local-day series': {
      sql: `WITH h AS (SELECT date_trunc('day', hour AT TIME ZONE '${tz}') AS b, is_next, bucket, sum(n) AS n FROM bench_rt_hour
                 WHERE org_id = '${orgId}' AND hour >= $1 AND hour < $2 GROUP BY 1, 2, 3),
            c AS (SELECT b, is_next, bucket, sum(n) OVER (PARTITION BY b, is_next ORDER BY bucket) AS cum, sum(n) OVER (PARTITION BY b, is_next) AS total FROM h)
            SELECT b, is_next, max(total)::int AS count, 2 * power(${GAMMA}, min(bucket) FILTER (WHERE cum >= ceil(0.5 * total))) / ${GAMMA + 1} AS median
            FROM c GROUP BY 1, 2`,
      params: [from, to],
    },
    'active chats (chat slots, today)': {
      sql: `SELECT count(*)::int AS n FROM (SELECT DISTINCT phone_id, chat_id FROM analytics_chat_slots WHERE org_id = '${orgId}' AND slot >= $1 AND slot < $2) d`,
      params: [from, to],
    },
    'active chats (chat days)': {
      sql: `SELECT count(*)::int AS n FROM (SELECT DISTINCT phone_id, chat_id FROM bench_chat_day WHERE org_id = '${orgId}' AND day >= $1 AND day < $2) d`,
      params: [from, to],
    },
  };
}

async function runPrototype(pg, orgId, from, to, rounds = 20) {
  const queries = prototypeQueries(orgId, from, to, 'Europe/Berlin');
  const answers = {};
  console.log(
    `\nprototype reads, aim organization, ${from.toISOString()} .. ${to.toISOString()} (${rounds} sequential runs each, today's 3):`,
  );
  for (const [name, q] of Object.entries(queries)) {
    const times = [];
    const n = /today/.test(name) ? 3 : rounds; // today's reads take seconds: 3 runs
    for (let i = 0; i < n; i++) {
      const t = process.hrtime.bigint();
      const r = await pg.query(q.sql, q.params);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
      answers[name] = r.rows;
    }
    times.sort((a, b) => a - b);
    const p = (x) => times[Math.min(times.length - 1, Math.ceil(x * times.length) - 1)].toFixed(0);
    console.log(`  ${name.padEnd(34)} p50 ${p(0.5)} ms  p99 ${p(0.99)} ms  (${answers[name].length} rows)`);
  }
  const exact = answers['exact percentiles (today)'];
  const approx = answers['histogram totals (day rows)'];
  for (const e of exact) {
    const a = approx.find((x) => x.is_next === e.is_next);
    const err = (k) => `${((Number(a[k]) / Number(e[k]) - 1) * 100).toFixed(2)} %`;
    console.log(
      `  ${e.is_next ? 'next ' : 'first'}: exact median ${Number(e.median).toFixed(0)} ms / p90 ${Number(e.p90).toFixed(0)} ms (n ${e.count}); ` +
        `histogram ${Number(a.median).toFixed(0)} / ${Number(a.p90).toFixed(0)} ms (n ${a.count}): error ${err('median')} / ${err('p90')}`,
    );
  }
}

module.exports = { buildPrototype, runPrototype };
