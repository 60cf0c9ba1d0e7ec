'use strict';
/**
 * The network side of the sandbox: inbound messages arrive as rows of sandbox_messages, each with
 * its row of sandbox_pending (what POST /v1/sandbox/messages writes, but many rows per statement),
 * then the phone's session is nudged over NATS exactly like the control API does. A row's
 * `timestamp` is the moment it was inserted; it travels unchanged into messages.timestamp, which is
 * how lag is measured.
 */
const { randomBytes } = require('node:crypto');

const WORDS =
  'hello order shop open price delivery today thanks please when where address invoice ticket help status tomorrow morning'.split(' ');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function bodyOf(i) {
  const n = 6 + (i % 9);
  const w = [];
  for (let k = 0; k < n; k++) w.push(WORDS[(i * 7 + k * 3) % WORDS.length]);
  return `${w.join(' ')}? #${i}`;
}

// The messages and their pending rows (what the phone's session reads) in one statement, as
// SandboxNetwork.addMessage writes them: a message without its pending row is never handed on.
const INSERT = `
  WITH m AS (
    INSERT INTO sandbox_messages (phone_id, chat_id, unique_id, from_me, sender, body, message_type, timestamp, ack)
    SELECT $1, c, u, false, c, b, 'chat', $5::timestamptz, 0
    FROM unnest($2::text[], $3::text[], $4::text[]) AS x(c, u, b)
    RETURNING id, phone_id, ack)
  INSERT INTO sandbox_pending (message_id, phone_id, new_message, ack) SELECT id, phone_id, true, ack FROM m`;

class Feeder {
  constructor(pool, nc, namespace) {
    this.pool = pool;
    this.nc = nc;
    this.namespace = namespace;
    this.seq = 0;
  }

  /** Inserts `count` messages for `phone` in one statement (all stamped now), then nudges its session. */
  async insert(phone, count, nudge = true) {
    const chats = [];
    const uids = [];
    const bodies = [];
    for (let k = 0; k < count; k++) {
      const i = this.seq++;
      chats.push(phone.chats[i % phone.chats.length]);
      uids.push(`3EB0${randomBytes(8).toString('hex').toUpperCase()}`);
      bodies.push(bodyOf(i));
    }
    const at = new Date();
    await this.pool.query(INSERT, [phone.phone_id, chats, uids, bodies, at]);
    if (nudge) this.nudge(phone);
    return { at, last: { chat_id: chats[count - 1], unique_id: uids[count - 1] } };
  }

  nudge(phone) {
    this.nc.publish(`${this.namespace}.sandbox.notify.${phone.phone_id}`, JSON.stringify({ kind: 'messages' }));
  }

  /**
   * Offers `rate` messages/s spread over `phones` for `seconds`, one insert per phone every tickMs.
   * Returns what was really offered (an insert slower than a tick makes the next one bigger).
   */
  async steady({ phones, rate, seconds, tickMs = 50, onInsert = () => {} }) {
    const start = Date.now();
    const end = start + seconds * 1000;
    let offered = 0;
    let maxInsertMs = 0;
    let p = 0;
    while (Date.now() < end) {
      const due = Math.floor(((Date.now() - start) / 1000) * rate);
      let n = due - offered;
      if (n > 0) {
        // Spread the tick's messages over the phones (each phone gets its own statement, in turn).
        const per = Math.ceil(n / phones.length);
        const jobs = [];
        for (let k = 0; k < phones.length && n > 0; k++) {
          const take = Math.min(per, n);
          n -= take;
          offered += take;
          const phone = phones[p++ % phones.length];
          jobs.push(this.insert(phone, take).then((r) => onInsert(phone, take, r)));
        }
        const t0 = Date.now();
        await Promise.all(jobs);
        maxInsertMs = Math.max(maxInsertMs, Date.now() - t0);
      }
      const next = tickMs - ((Date.now() - start) % tickMs);
      await sleep(next);
    }
    return { offered, seconds: (Date.now() - start) / 1000, maxInsertMs };
  }

  /** Inserts `total` messages as fast as the database takes them, in statements of `batch`. */
  async burst({ phone, total, batch = 5_000, onInsert = () => {} }) {
    const start = Date.now();
    for (let done = 0; done < total; done += batch) {
      const take = Math.min(batch, total - done);
      const r = await this.insert(phone, take);
      onInsert(phone, take, r);
    }
    return { offered: total, seconds: (Date.now() - start) / 1000 };
  }
}

module.exports = { Feeder, bodyOf };
