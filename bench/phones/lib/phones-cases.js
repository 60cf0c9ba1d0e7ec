'use strict';
/**
 * Stages of the phones service's hand-on loop (SandboxConnector.syncOnce): pending() reads up to
 * 500 rows, the session publishes events of 200 to JetStream one by one, markDelivered marks the
 * rows. Each on `total` messages. What is pending lives in sandbox_pending (one row per message
 * still to hand on); history is rows of sandbox_messages without one.
 */
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { createPrismaClient } = require('@mapi/db');
const { ingestEvents } = require('./direct-publisher');

const dist = (f) => require(path.join(__dirname, '..', '..', '..', 'libs', 'phones-feature', 'dist', f));
const { SandboxNetwork } = dist('sandbox/sandbox-network.js');
const { IngestPublisher } = dist('sessions/ingest-publisher.js');

const HISTORY = Number(process.env.BENCH_HISTORY ?? 100_000);

/** `count` messages for the phone: handed on already (history), or each with its pending row. */
async function seed(pool, phoneId, count, delivered) {
  await pool.query(
    `WITH m AS (
       INSERT INTO sandbox_messages (phone_id, chat_id, unique_id, from_me, sender, body, message_type, timestamp)
       SELECT $1, '1@c.us', $2 || g, false, '1@c.us', 'hello there', 'chat', now() FROM generate_series(1, $4) g
       RETURNING id, phone_id, ack)
     INSERT INTO sandbox_pending (message_id, phone_id, new_message, ack) SELECT id, phone_id, true, ack FROM m WHERE NOT $3`,
    [phoneId, randomBytes(4).toString('hex'), delivered, count],
  );
}

// What SandboxNetwork.pending() returns, all of the phone's pending rows at once.
const PENDING = `SELECT m.*, p.new_message, p.ack AS pending_ack FROM sandbox_pending p JOIN sandbox_messages m ON m.id = p.message_id
  WHERE p.phone_id = $1 ORDER BY p.message_id`;

function phonesCases({ dbUrl, pool, nc, namespace, mkPhone, total }) {
  const prisma = createPrismaClient({ url: dbUrl, poolSize: 2 });
  const network = new SandboxNetwork(prisma);
  const publisher = new IngestPublisher(nc, namespace);
  /** A phone with `total` undelivered rows (and `history` delivered ones), read in pending() pages. */
  const pages = async (history = 0) => {
    const phone = mkPhone();
    if (history) await seed(pool, phone.phone_id, history, true);
    await seed(pool, phone.phone_id, total, false);
    const { rows } = await pool.query(PENDING, [phone.phone_id]);
    const out = [];
    for (let i = 0; i < rows.length; i += 500) out.push(rows.slice(i, i + 500));
    return { phone, out };
  };
  return {
    cases: {
      'SandboxNetwork.markDelivered (one statement per 500 rows: DELETE from sandbox_pending)': async () => {
        const { out } = await pages();
        return async () => {
          for (const rows of out) await network.markDelivered(rows);
        };
      },
      'SandboxNetwork.pending(500), no delivered history (x2 per 1k)': async () => {
        const { phone } = await pages();
        return async () => {
          for (let i = 0; i < total / 500; i++) await network.pending(phone.phone_id);
        };
      },
      [`SandboxNetwork.pending(500), ${HISTORY} delivered rows of history`]: async () => {
        const { phone } = await pages(HISTORY);
        await pool.query('ANALYZE sandbox_messages, sandbox_pending');
        return async () => {
          for (let i = 0; i < total / 500; i++) await network.pending(phone.phone_id);
        };
      },
      'IngestPublisher.publish: events of 200, one at a time (as the session)': async () => {
        const events = ingestEvents(mkPhone(), total, 200);
        return async () => {
          for (const e of events) await publisher.publish(e);
        };
      },
    },
    close: () => prisma.$disconnect(),
  };
}

module.exports = { phonesCases };
