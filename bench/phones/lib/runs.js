'use strict';
/**
 * One measured run of each kind. A run gets its own phone(s), so runs never share a backlog; a run
 * whose backlog outlives the drain limit is cut (the rest is dropped on both sides) so the next
 * run starts clean, and is reported as not keeping up.
 */
const { sampler } = require('./watcher');
const { httpProbe } = require('./http-probe');
const { lagSummary, rateBetween } = require('./stats');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Commits of the bench's database so far (pg_stat_database; flushed by the server within ~1 s). */
async function commits(pool) {
  const { rows } = await pool.query('SELECT xact_commit::bigint AS c FROM pg_stat_database WHERE datname = current_database()');
  return Number(rows[0].c);
}

/** Rows read by sequential scans and fetched through indexes, per table (pg_stat_user_tables). */
async function tableReads(pool) {
  const { rows } = await pool.query(
    'SELECT relname, seq_scan::bigint AS s, seq_tup_read::bigint AS r, coalesce(idx_tup_fetch, 0)::bigint AS f FROM pg_stat_user_tables',
  );
  return Object.fromEntries(rows.map((x) => [x.relname, { seq_scans: Number(x.s), seq_rows: Number(x.r), idx_rows: Number(x.f) }]));
}

function diffReads(a, b) {
  const out = {};
  for (const [t, v] of Object.entries(b)) {
    const d = {
      seq_scans: v.seq_scans - (a[t]?.seq_scans ?? 0),
      seq_rows: v.seq_rows - (a[t]?.seq_rows ?? 0),
      idx_rows: v.idx_rows - (a[t]?.idx_rows ?? 0),
    };
    if (d.seq_rows + d.idx_rows > 0) out[t] = d;
  }
  return out;
}

async function outboxBacklog(pool) {
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n FROM outbox_events WHERE seq > (SELECT last_seq FROM outbox_cursor WHERE name = 'relay')`,
  );
  return rows[0].n;
}

/** Waits for the chats outbox relay to publish what earlier runs wrote (it shares the CPU). */
async function settle(ctx, maxMs = 30_000) {
  const deadline = Date.now() + maxMs;
  let n = await outboxBacklog(ctx.pool);
  while (n > 0 && Date.now() < deadline) {
    await sleep(250);
    n = await outboxBacklog(ctx.pool);
  }
  await sleep(1_000); // lets pg_stat_database catch up before the next run reads it
  return n;
}

/**
 * Drops a backlog that did not drain in time: the network forgets it, the stream is purged, and
 * chats is restarted (SIGKILL), since its consumer holds up to 2 x 200 events in memory that a
 * purge does not reach. Unacknowledged events are gone from the stream, so nothing comes back.
 */
async function cut(ctx, phoneIds) {
  await ctx.pool.query('DELETE FROM sandbox_pending WHERE phone_id = ANY($1)', [phoneIds]);
  await sleep(3_000); // the iteration under way in the phones service publishes its last events
  await ctx.jsm.streams.purge(ctx.streams.ingest);
  await ctx.restartChats();
  for (let i = 0; i < 100; i++) {
    const info = await ctx.consumerInfo();
    if (info.num_pending + info.num_ack_pending === 0) break;
    await sleep(200);
  }
  await sleep(1_000);
}

async function measure(ctx, { name, phones, offer, expected, drainMs, probe = true }) {
  const ids = phones.map((p) => p.phone_id);
  const trackers = ids.map((id) => ctx.watcher.track(id));
  let latest = null;
  const firstInsert = { at: null };
  const onInsert = (phone, _n, r) => {
    firstInsert.at ??= r.at.getTime() - 0;
    latest = { phone_id: phone.phone_id, chat_id: r.last.chat_id, unique_id: r.last.unique_id, at: r.at };
  };
  const commits0 = await commits(ctx.pool);
  const queries0 = ctx.pool.queries;
  const countOf = async () => (await ctx.pool.query('SELECT count(*)::int AS n FROM messages WHERE phone_id = ANY($1)', [ids])).rows[0].n;
  const sql0 = await countOf();
  const events0 = await streamEvents(ctx);
  const reads0 = await tableReads(ctx.pool);
  const consumer0 = await ctx.consumerInfo();
  const s = sampler({ pool: ctx.pool, watcher: ctx.watcher, phoneIds: ids, consumerInfo: ctx.consumerInfo });
  const p = probe ? httpProbe({ baseUrl: ctx.baseUrl, token: ctx.token, latest: () => latest }) : null;
  await ctx.cpu.start();
  const t0 = Date.now();
  const offered = await offer(onInsert);
  const offerEnd = Date.now() - t0;
  const total = expected ?? offered.offered;
  const drained = await ctx.watcher.until(ids, total, drainMs);
  const cpu = await ctx.cpu.stop();
  const windowS = (Date.now() - t0) / 1000;
  const reads = diffReads(reads0, await tableReads(ctx.pool));
  const consumer1 = await ctx.consumerInfo();
  // Deliveries beyond the new events: redeliveries (a batch outlived the consumer's ack wait).
  const deliveries = consumer1.delivered.consumer_seq - consumer0.delivered.consumer_seq;
  const redeliveries = deliveries - (consumer1.delivered.stream_seq - consumer0.delivered.stream_seq);
  const samples = await s.stop();
  const http = p ? await p.stop() : { lags: [], errors: 0 };
  const outboxAtEnd = await outboxBacklog(ctx.pool);
  if (!drained) await cut(ctx, ids);
  const outboxLeft = await settle(ctx);
  const txs = (await commits(ctx.pool)) - commits0 - (ctx.pool.queries - queries0);
  const sqlCount = (await countOf()) - sql0;
  const events = (await streamEvents(ctx)) - events0;

  const lags = trackers.flatMap((t) => t.lags);
  const seen = ctx.watcher.seen(ids);
  const lastSeen = Math.max(...trackers.map((t) => t.lastSeen ?? 0));
  const warm = Math.min(5_000, offerEnd / 4); // the sustained rate leaves out the first seconds
  const perK = (sec) => (seen ? (1000 * sec) / seen : null);
  return {
    name,
    phones: ids.length,
    offered: offered.offered,
    offered_rate: offered.offered / offered.seconds,
    offer_seconds: offered.seconds,
    max_insert_ms: offered.maxInsertMs ?? null,
    drained,
    readable: seen,
    sql_count: sqlCount,
    ingest_events: events,
    consumer_deliveries: deliveries,
    redeliveries,
    msgs_per_event: events > 0 ? sqlCount / events : null,
    throughput: drained && firstInsert.at ? (seen * 1000) / (lastSeen - firstInsert.at) : null,
    sustained_readable_rate: rateBetween(samples, 'readable', warm, offerEnd),
    sustained_handed_rate: rateBetween(samples, 'handed', warm, offerEnd),
    backlog_at_offer_end: {
      phones_stage: backlogAt(samples, offerEnd, 'offered', 'handed'),
      chats_stage_events: atOrBefore(samples, offerEnd)?.js_pending ?? null,
    },
    max_js_pending_events: Math.max(0, ...samples.map((x) => x.js_pending ?? 0)),
    lag_ms: lagSummary(lags),
    http_lag_ms: { ...lagSummary(http.lags), errors: http.errors, slowest_gets_ms: http.slowest },
    db_commits_per_1k: perK(txs),
    cpu_s_per_1k: !drained
      ? {}
      : Object.fromEntries(
          Object.entries(cpu)
            .filter(([k]) => !k.includes('%'))
            .map(([k, v]) => [k, perK(v)]),
        ),
    cpu_s: cpu,
    cores_used: Object.fromEntries(
      Object.entries(cpu)
        .filter(([k]) => !k.includes('%'))
        .map(([k, v]) => [k, v / windowS]),
    ),
    table_reads: reads,
    outbox_backlog_at_end: outboxAtEnd,
    outbox_left_after_settle: outboxLeft,
    samples,
  };
}

/** Events stored in the ingest stream so far (purges do not lower last_seq). */
async function streamEvents(ctx) {
  const info = await ctx.jsm.streams.info(ctx.streams.ingest);
  return info.state.last_seq;
}

const atOrBefore = (samples, t) => [...samples].reverse().find((x) => x.t <= t);
function backlogAt(samples, t, a, b) {
  const x = atOrBefore(samples, t);
  return x ? x[a] - x[b] : null;
}

module.exports = { measure, settle, cut, commits };
