'use strict';
/**
 * Watches messages become readable: polls the messages table for rows above the last id seen
 * (one chats consumer applies batches one transaction at a time, so ids become visible in order;
 * a final count(*) checks nothing was skipped). A row's lag = when the poll first saw it committed
 * minus its timestamp (= when the network received it). Also samples, per phone, how far the
 * phones service got (sandbox_messages handed on) and the chats consumer's JetStream backlog.
 */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

class Watcher {
  constructor(pool, { pollMs = 20 } = {}) {
    this.pool = pool;
    this.pollMs = pollMs;
    this.lastId = 0n;
    this.byPhone = new Map(); // phone_id -> { lags: number[], seen: number, firstSeen, lastSeen }
    this.running = false;
  }

  track(phoneId) {
    const t = { lags: [], seen: 0, firstSeen: null, lastSeen: null };
    this.byPhone.set(phoneId, t);
    return t;
  }

  async start() {
    // A connection of its own that never seq-scans: the table grows from empty faster than
    // autovacuum analyzes it, and a poll that scanned it 50 times a second would be the load.
    this.client = await this.pool.connect();
    await this.client.query('SET enable_seqscan = off');
    const { rows } = await this.client.query('SELECT coalesce(max(id), 0)::text AS id FROM messages');
    this.lastId = BigInt(rows[0].id);
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        await this.pollOnce().catch((e) => console.error('watcher poll failed:', e.message));
        await sleep(this.pollMs);
      }
    })();
  }

  async pollOnce() {
    if (typeof this.pool.queries === 'number') this.pool.queries++; // its commits are the bench's, not the services'
    const { rows } = await this.client.query(
      `SELECT m.id::text AS id, m.phone_id, (extract(epoch FROM m.timestamp) * 1000)::float8 AS ts
       FROM messages m WHERE m.id > $1 ORDER BY m.id LIMIT 100000`,
      [this.lastId.toString()],
    );
    const now = Date.now();
    for (const r of rows) {
      const t = this.byPhone.get(r.phone_id);
      if (!t) continue;
      t.lags.push(now - r.ts);
      t.seen++;
      t.firstSeen ??= now;
      t.lastSeen = now;
    }
    if (rows.length) this.lastId = BigInt(rows[rows.length - 1].id);
  }

  seen(phoneIds) {
    return phoneIds.reduce((a, id) => a + (this.byPhone.get(id)?.seen ?? 0), 0);
  }

  /** Resolves when `total` messages of these phones were seen, or false after timeoutMs. */
  async until(phoneIds, total, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.seen(phoneIds) >= total) return true;
      await sleep(10);
    }
    return this.seen(phoneIds) >= total;
  }

  async stop() {
    this.running = false;
    await this.loop;
    this.client?.release();
    this.client = undefined;
  }
}

/** Every `everyMs` (a count over the phones' sandbox rows: not too often): readable so far, handed on by the phones service, and events waiting for chats. */
function sampler({ pool, watcher, phoneIds, consumerInfo, everyMs = 1000 }) {
  const samples = [];
  let running = true;
  const t0 = Date.now();
  const loop = (async () => {
    while (running) {
      const [{ rows }, info] = await Promise.all([
        // Handed on: offered less the messages still pending (one statement, so one snapshot).
        pool.query(
          `SELECT o.n - p.n AS handed, o.n AS offered
           FROM (SELECT count(*)::int AS n FROM sandbox_messages WHERE phone_id = ANY($1)) o,
                (SELECT count(*)::int AS n FROM sandbox_pending WHERE phone_id = ANY($1) AND new_message) p`,
          [phoneIds],
        ),
        consumerInfo().catch(() => null),
      ]);
      samples.push({
        t: Date.now() - t0,
        offered: rows[0].offered,
        handed: rows[0].handed,
        readable: watcher.seen(phoneIds),
        js_pending: info ? info.num_pending + info.num_ack_pending : null,
        js_ack_pending: info ? info.num_ack_pending : null,
      });
      await sleep(everyMs);
    }
  })();
  return {
    samples,
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

module.exports = { Watcher, sampler };
