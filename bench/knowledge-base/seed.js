'use strict';
/**
 * Seeding for the knowledge-base bench: every row gets a real vector of the default (offline) provider,
 * made by worker threads and streamed to PostgreSQL with one binary COPY (no per-row SQL, no text
 * parsing of vectors); the HNSW index is dropped before the load and built once afterwards, from the
 * migration's own definition (read from pg_indexes), with a large maintenance_work_mem.
 */
const path = require('node:path');
const { once } = require('node:events');
const { Worker } = require('node:worker_threads');
const Query = require('pg/lib/query');
const { makeRand, makeTexts, chunkSeed } = require('./texts');

const HNSW_INDEX = 'knowledge_base_entries_embedding_hnsw_idx';

/** COPY … FROM STDIN fed from an async iterable of Buffers (pg has no COPY API of its own). */
class CopyFrom extends Query {
  constructor(text, source) {
    super({ text });
    this.source = source;
  }

  handleCopyInResponse(connection) {
    (async () => {
      try {
        for await (const chunk of this.source) {
          connection.sendCopyFromChunk(chunk);
          if (connection.stream.writableNeedDrain) await once(connection.stream, 'drain');
        }
        connection.endCopyFrom();
      } catch (error) {
        connection.sendCopyFail(String(error?.message ?? error));
      }
    })();
  }
}

const copyFrom = (client, text, source) =>
  new Promise((resolve, reject) => client.query(new CopyFrom(text, source), (err, res) => (err ? reject(err) : resolve(res))));

/** Which organization each row belongs to: orgEntries rows of org 0, the rest even over the others, shuffled. */
function planOrgs(total, orgEntries, orgs) {
  const orgOf = new Uint16Array(total);
  const rest = total - orgEntries;
  let i = orgEntries;
  for (let o = 1; o < orgs; o++) {
    const n = Math.floor(rest / (orgs - 1)) + (o <= rest % (orgs - 1) ? 1 : 0);
    orgOf.fill(o, i, i + n);
    i += n;
  }
  const rand = makeRand(7); // interleaved, as rows of many organizations arrive mixed in real life
  for (let j = total - 1; j > 0; j--) {
    const k = Math.floor(rand() * (j + 1));
    const t = orgOf[j];
    orgOf[j] = orgOf[k];
    orgOf[k] = t;
  }
  return orgOf;
}

/** Chunks of binary COPY rows, in order, made by `workers` threads (at most 2 chunks each in flight). */
async function* rowChunks({ orgIds, orgOf, chunkSize, workers, embedderPath, onChunk }) {
  const pool = Array.from(
    { length: workers },
    () => new Worker(path.join(__dirname, 'seed-worker.js'), { workerData: { orgIds, embedderPath } }),
  );
  const chunks = Math.ceil(orgOf.length / chunkSize);
  const pending = new Map();
  let next = 0;
  const submit = () => {
    const chunk = next++;
    const worker = pool[chunk % workers];
    pending.set(
      chunk,
      new Promise((resolve, reject) => {
        const onMessage = (msg) => {
          if (msg.chunk !== chunk) return;
          worker.off('message', onMessage);
          worker.off('error', reject);
          resolve(Buffer.from(msg.buf));
        };
        worker.on('message', onMessage);
        worker.once('error', reject);
      }),
    );
    worker.postMessage({ chunk, orgIndex: orgOf.slice(chunk * chunkSize, Math.min(orgOf.length, (chunk + 1) * chunkSize)) });
  };
  try {
    const header = Buffer.alloc(19);
    Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1').copy(header, 0); // signature, then flags and extension length (0)
    yield header;
    while (next < Math.min(chunks, workers * 2)) submit();
    for (let c = 0; c < chunks; c++) {
      const buf = await pending.get(c);
      pending.delete(c);
      if (next < chunks) submit();
      onChunk?.(c, Math.min(orgOf.length, (c + 1) * chunkSize));
      yield buf;
    }
    yield Buffer.from([0xff, 0xff]); // trailer
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

/**
 * Loads `total` FAQ rows (orgEntries of orgIds[0]) and builds the HNSW index. Answers the timings and
 * the index's definition and size.
 */
async function seed(
  client,
  { orgIds, total, orgEntries, workers, chunkSize = 10_000, embedderPath, maintenanceWorkMem, parallelWorkers, log },
) {
  const def = await client.query('SELECT indexdef FROM pg_indexes WHERE indexname = $1', [HNSW_INDEX]);
  if (def.rows.length !== 1) throw new Error(`${HNSW_INDEX} not found: the migrations changed`);
  const indexDef = def.rows[0].indexdef;
  await client.query(`DROP INDEX ${HNSW_INDEX}`);

  const orgOf = planOrgs(total, orgEntries, orgIds.length);
  let started = Date.now();
  let lastLog = 0;
  const res = await copyFrom(
    client,
    'COPY knowledge_base_entries (org_id, type, question, answer, is_active, embedding, embedding_model) FROM STDIN (FORMAT binary)',
    rowChunks({
      orgIds,
      orgOf,
      chunkSize,
      workers,
      embedderPath,
      onChunk: (_c, rows) => {
        if (rows - lastLog >= 100_000 || rows === total) {
          lastLog = rows;
          log(`  embedded and sent ${rows}/${total} rows (${Math.round((Date.now() - started) / 1000)} s)`);
        }
      },
    }),
  );
  if (res.rowCount !== total) throw new Error(`COPY loaded ${res.rowCount} rows, expected ${total}`);
  const seedSeconds = (Date.now() - started) / 1000;

  started = Date.now();
  await client.query(`SET maintenance_work_mem = '${maintenanceWorkMem}'`);
  await client.query(`SET max_parallel_maintenance_workers = ${Number(parallelWorkers)}`);
  await client.query(indexDef);
  const hnswSeconds = (Date.now() - started) / 1000;

  started = Date.now();
  await client.query('VACUUM (ANALYZE) knowledge_base_entries');
  const vacuumSeconds = (Date.now() - started) / 1000;
  const sizes = await client.query(
    `SELECT pg_size_pretty(pg_relation_size('knowledge_base_entries')) AS heap, pg_size_pretty(pg_relation_size('${HNSW_INDEX}')) AS hnsw`,
  );
  return { seedSeconds, hnswSeconds, vacuumSeconds, indexDef, sizes: sizes.rows[0], orgOf, chunkSize };
}

/**
 * Questions of the first n entries of organization 0, regenerated exactly as the workers made them
 * (same chunk seeds, same order): queries whose right answer is known.
 */
function orgQuestions(orgOf, chunkSize, n) {
  const out = [];
  for (let chunk = 0; out.length < n && chunk * chunkSize < orgOf.length; chunk++) {
    const texts = makeTexts(chunkSeed(chunk));
    for (let i = chunk * chunkSize; i < Math.min(orgOf.length, (chunk + 1) * chunkSize) && out.length < n; i++) {
      const { question } = texts.faq();
      if (orgOf[i] === 0) out.push(question);
    }
  }
  return out;
}

module.exports = { seed, planOrgs, orgQuestions, HNSW_INDEX };
