'use strict';
/**
 * Stages of the chats consumer, each on `total` fresh messages: the code it runs (zod, ApplyIngest,
 * writeEvents, OutboxRelay) next to the bare Prisma statements it is made of and plain-SQL
 * equivalents. Each case's prepare (untimed) returns the function to time.
 */
const path = require('node:path');
const { IngestEventSchema } = require('@mapi/contracts');
const { eventSubject, writeEvents, OutboxRelay } = require('@mapi/events');
const { mapMessage } = require('@mapi/chats-feature/internals');
const { ingestEvents } = require('./direct-publisher');

const dist = (f) => require(path.join(__dirname, '..', '..', '..', 'libs', 'chats-feature', 'dist', 'ingest', f));
const { ApplyIngest } = dist('apply-ingest.usecase.js');
const { ingestRow } = dist('ingest-rows.js');
const { learnContacts } = dist('learn-contacts.js');

const COLS = [
  'org_id',
  'phone_id',
  'chat_id',
  'message_id',
  'unique_id',
  'org_phone',
  'sender_phone',
  'from_me',
  'body',
  'message_type',
  'timestamp',
  'ack',
  'delivery_info',
  'mentioned_ids',
  'media',
  'fts',
  'author',
  'has_media',
  'is_forwarded',
  'quoted_message_id',
  'sent_message_id',
  'from',
  'to',
];
const cols = COLS.map((c) => `"${c}"`).join(', ');
/** A whole event's rows in one statement: one jsonb parameter, duplicates skipped. */
const RAW_MESSAGES = `INSERT INTO messages (${cols}) SELECT ${cols} FROM jsonb_populate_recordset(NULL::messages, $1::jsonb)
  ON CONFLICT (phone_id, message_id) DO NOTHING RETURNING *`;
const RAW_CHATS = `INSERT INTO chats (org_id, phone_id, chat_id, chat_type)
  SELECT org_id, phone_id, chat_id, chat_type FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, phone_id text, chat_id text, chat_type text)
  ON CONFLICT (phone_id, chat_id) DO NOTHING RETURNING *`;
const RAW_OUTBOX = `INSERT INTO outbox_events (id, org_id, type, phone_id, payload)
  SELECT gen_random_uuid(), org_id, type, phone_id, payload FROM jsonb_to_recordset($1::jsonb) AS x(org_id uuid, type text, phone_id text, payload jsonb)`;

function chatsCases({ prisma, pool, nc, namespace, mkPhone, total }) {
  const silent = { warn() {}, error() {}, info() {}, debug() {} };
  const apply = new ApplyIngest(prisma);
  const relay = new OutboxRelay(prisma, nc, namespace, silent);
  const evs = (perEvent, type) => ingestEvents(mkPhone(), total, perEvent, type);
  const rowsOf = (perEvent) => evs(perEvent).map((e) => e.messages.map((m) => ingestRow(e, m)));
  const outboxOf = () => {
    const phone = mkPhone();
    return rowsOf(200).map((rs) =>
      rs.map((r) => ({
        type: 'message.created',
        org_id: phone.org_id,
        phone_id: phone.phone_id,
        data: mapMessage({ ...r, id: 1n, prev_body: null, updated_at: new Date() }),
      })),
    );
  };
  // ensureChats' input for each event of 200: its distinct chats.
  const chatLists = () =>
    evs(200).map((e) =>
      [...new Set(e.messages.map((m) => m.chat_id))].map((chat_id) => ({
        org_id: e.org_id,
        phone_id: e.phone_id,
        chat_id,
        chat_name: null,
        chat_type: 'user',
      })),
    );
  return {
    'zod IngestEventSchema.safeParse (events of 200)': async () => {
      const e = evs(200);
      return async () => e.forEach((x) => IngestEventSchema.safeParse(x));
    },
    'ApplyIngest.execute: 20 events x 200 msgs, one tx': async () => {
      const e = evs(200);
      return () => apply.execute(e);
    },
    'ApplyIngest.execute: 200 events x 20 msgs, one tx': async () => {
      const e = evs(20);
      return () => apply.execute(e);
    },
    'ApplyIngest.execute: 20 x 200 again (a redelivered batch)': async () => {
      const e = evs(200);
      await apply.execute(e);
      return () => apply.execute(e);
    },
    'learnContacts alone: 20 events x 200 msgs (its one statement per batch, new contacts)': async () => {
      const e = evs(200);
      return () => prisma.$transaction((tx) => learnContacts(tx, e));
    },
    'learnContacts alone: 20 x 200 again (contacts known: no row written)': async () => {
      const e = evs(200);
      await prisma.$transaction((tx) => learnContacts(tx, e));
      return () => prisma.$transaction((tx) => learnContacts(tx, e));
    },
    'ApplyIngest.execute: 20 x 200, type append (no outbox rows)': async () => {
      const e = evs(200, 'append');
      return () => apply.execute(e);
    },
    'prisma message.createManyAndReturn, 200 rows/stmt': async () => {
      const rows = rowsOf(200);
      return async () => {
        for (const data of rows)
          (await prisma.message.createManyAndReturn({ data, skipDuplicates: true, omit: { id: true, phone_id: true } })).map(mapMessage);
      };
    },
    'prisma message.createMany (no RETURNING), 200 rows/stmt': async () => {
      const rows = rowsOf(200);
      return async () => {
        for (const data of rows) await prisma.message.createMany({ data, skipDuplicates: true });
      };
    },
    'pg: INSERT messages .. jsonb_populate_recordset .. RETURNING, 200 rows/stmt': async () => {
      const rows = rowsOf(200);
      return async () => {
        for (const data of rows) (await pool.query(RAW_MESSAGES, [JSON.stringify(data)])).rows.map(mapMessage);
      };
    },
    'outbox writeEvents (prisma createMany), 200 events/stmt': async () => {
      const batches = outboxOf();
      return async () => {
        for (const b of batches) await writeEvents(prisma, b);
      };
    },
    'pg: INSERT outbox_events .. jsonb_to_recordset, 200 events/stmt': async () => {
      const batches = outboxOf().map((b) =>
        JSON.stringify(b.map((e) => ({ org_id: e.org_id, type: e.type, phone_id: e.phone_id, payload: e.data }))),
      );
      return async () => {
        for (const b of batches) await pool.query(RAW_OUTBOX, [b]);
      };
    },
    'prisma chat.createManyAndReturn (ensureChats) per event of 200, chats known': async () => {
      const lists = chatLists();
      for (const data of lists) await prisma.chat.createManyAndReturn({ data, skipDuplicates: true });
      return async () => {
        for (const data of lists) await prisma.chat.createManyAndReturn({ data, skipDuplicates: true });
      };
    },
    'pg: INSERT chats .. ON CONFLICT DO NOTHING RETURNING per event, chats known': async () => {
      const lists = chatLists().map((l) => JSON.stringify(l));
      for (const l of lists) await pool.query(RAW_CHATS, [l]);
      return async () => {
        for (const l of lists) await pool.query(RAW_CHATS, [l]);
      };
    },
    'OutboxRelay.relayOnce until empty (publish to JetStream)': async () => {
      await pool.query(`UPDATE outbox_cursor SET last_seq = (SELECT coalesce(max(seq), 0) FROM outbox_events) WHERE name = 'relay'`); // earlier cases' rows
      for (const b of outboxOf()) await writeEvents(prisma, b);
      return async () => {
        while ((await relay.relayOnce()) > 0);
      };
    },
    'relay as before the cursor: FOR UPDATE SKIP LOCKED, publish, UPDATE published_at': async () => {
      await pool.query('DROP TABLE IF EXISTS outbox_marked');
      await pool.query('CREATE TABLE outbox_marked (LIKE outbox_events INCLUDING ALL, published_at timestamptz(3))');
      await pool.query('CREATE INDEX ON outbox_marked (published_at, seq)');
      for (const b of outboxOf()) {
        await writeEvents(prisma, b);
        await pool.query(
          `INSERT INTO outbox_marked SELECT *, NULL FROM outbox_events WHERE seq > (SELECT last_seq FROM outbox_cursor WHERE name = 'relay')`,
        );
        await pool.query(`UPDATE outbox_cursor SET last_seq = (SELECT max(seq) FROM outbox_events) WHERE name = 'relay'`);
      }
      return () => relayByMark(pool, nc, namespace);
    },
  };
}

/** The relay before the cursor (each event locked, then marked published), on a copy of the rows. */
async function relayByMark(pool, nc, namespace) {
  const js = nc.jetstream();
  const client = await pool.connect();
  try {
    for (;;) {
      await client.query('BEGIN');
      const { rows } = await client.query(
        'SELECT id, org_id, type, phone_id, payload::text AS payload, created_at FROM outbox_marked WHERE published_at IS NULL ORDER BY seq LIMIT 500 FOR UPDATE SKIP LOCKED',
      );
      if (!rows.length) {
        await client.query('COMMIT');
        return;
      }
      await Promise.all(
        rows.map((r) =>
          js.publish(
            eventSubject(namespace, r.type),
            `${JSON.stringify({ event_id: r.id, event_type: r.type, org_id: r.org_id, phone_id: r.phone_id, created_at: r.created_at.toISOString() }).slice(0, -1)},"data":${r.payload}}`,
            { msgID: `m-${r.id}` },
          ),
        ),
      );
      await client.query('SET LOCAL synchronous_commit = off');
      await client.query('UPDATE outbox_marked SET published_at = now() WHERE id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
      await client.query('COMMIT');
    }
  } finally {
    client.release();
  }
}

module.exports = { chatsCases };
