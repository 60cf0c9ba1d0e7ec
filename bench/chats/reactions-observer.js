#!/usr/bin/env node
'use strict';
/**
 * The observing side of bench/chats/reactions-webhook.js, in a process of its own so that the load
 * generator's event loop (200 control requests a second) does not delay its clocks: the webhook
 * receiver (arrival of each change), and core NATS listeners on the namespace's ingest subjects (when
 * phones published the change as heard from the network) and event subjects (when the relay published
 * its event), and a Postgres LISTEN on the outbox channel (when a transaction that wrote events
 * committed: its NOTIFY is delivered then). Started with fork(); `{namespace, natsUrl, databaseUrl,
 * messageIds}` in, `{url}` back; on `report` it answers with the first time of each change's key per
 * mark: {ingest, published, created, committed, arrival, event}. `committed` is the first outbox
 * notification heard at or after the change's created_at (the chats batch transactions do not overlap,
 * and nothing else writes events while the changes run, so that is the commit of the change's batch).
 */
const { connect, JSONCodec } = require('nats');
const { Client } = require('pg');
const { startReceiver } = require('../webhooks/receiver');

const codec = JSONCodec();
/** The change a body describes: edits by message and text, reactions by message and emoji. */
const keyOf = (type, d) =>
  type === 'message.updated' ? `edit|${d.message_id}|${d.body}` : `react|${d.msg_id?.serialized ?? d.message_id}|${d.reaction}`;
const TYPES = new Set(['message.updated', 'reaction.created', 'reaction.updated']);

process.once('message', async ({ namespace, natsUrl, databaseUrl, messageIds }) => {
  const messageIdOf = new Map(messageIds);
  const at = { ingest: new Map(), published: new Map(), created: new Map(), arrival: new Map(), event: new Map() };
  const first = (m, k, v) => !m.has(k) && m.set(k, v);
  const nc = await connect({ servers: natsUrl });
  nc.subscribe(`${namespace}.ingest.>`, {
    callback: (_err, msg) => {
      const t = Date.now();
      const e = codec.decode(msg.data);
      const mid = messageIdOf.get(e.unique_id);
      if (e.kind === 'edit') first(at.ingest, `edit|${mid}|${e.body}`, t);
      else if (e.kind === 'reaction') first(at.ingest, `react|${mid}|${e.reaction?.reaction}`, t);
    },
  });
  nc.subscribe(`${namespace}.events.>`, {
    callback: (_err, msg) => {
      const t = Date.now();
      const e = codec.decode(msg.data);
      if (TYPES.has(e.event_type)) first(at.published, keyOf(e.event_type, e.data ?? {}), t);
    },
  });
  await nc.flush();
  const notified = []; // ms each outbox notification was heard, ascending
  const pg = databaseUrl ? new Client({ connectionString: databaseUrl }) : null;
  if (pg) {
    await pg.connect();
    pg.on('notification', () => notified.push(Date.now()));
    await pg.query('LISTEN mapi_outbox');
  }
  /** The first notification heard at or after t (binary search). */
  const committedAfter = (t) => {
    let lo = 0;
    let hi = notified.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (notified[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return notified[lo];
  };
  const receiver = await startReceiver();
  receiver.state.onRequest = (entry) => {
    const e = JSON.parse(entry.body);
    // message.updated carries the message (spec 2.1); reaction.* the ReactionType, whose message is msg_id.serialized
    const key = keyOf(e.event, e.data ?? {});
    if (first(at.arrival, key, entry.at)) at.event.set(key, e.event_id);
    // the envelope's timestamp is the outbox row's created_at (the writing transaction's start)
    const t = Date.parse(e.timestamp ?? e.created_at);
    if (Number.isFinite(t)) first(at.created, key, t);
    receiver.requests.length = 0; // nothing reads them here: keep memory flat
  };
  process.on('message', async (m) => {
    if (m === 'report') {
      const committed = [...at.created].map(([k, t]) => [k, committedAfter(t)]).filter(([, t]) => t !== undefined);
      process.send({ report: { ...Object.fromEntries(Object.entries(at).map(([k, v]) => [k, [...v]])), committed } });
    }
    if (m === 'arrived') process.send({ arrived: [...at.arrival.keys()] });
    if (m === 'stop') {
      await nc.close();
      await pg?.end();
      await receiver.close();
      process.exit(0);
    }
  });
  process.send({ url: receiver.url });
});
