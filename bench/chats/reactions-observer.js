#!/usr/bin/env node
'use strict';
/**
 * The observing side of bench/chats/reactions-webhook.js, in a process of its own so that the load
 * generator's event loop (200 control requests a second) does not delay its clocks: the webhook
 * receiver (arrival of each change), and core NATS listeners on the namespace's ingest subjects (when
 * phones published the change as heard from the network) and event subjects (when the relay published
 * its event). Started with fork(); `{namespace, natsUrl, messageIds}` in, `{url}` back; on `report`
 * it answers with the first time of each change's key per mark: {ingest, published, created, arrival, event}.
 */
const { connect, JSONCodec } = require('nats');
const { startReceiver } = require('../webhooks/receiver');

const codec = JSONCodec();
/** The change a body describes: edits by message and text, reactions by message and emoji. */
const keyOf = (type, d) => (type === 'message.updated' ? `edit|${d.message_id}|${d.body}` : `react|${d.msg_id?.serialized ?? d.message_id}|${d.reaction}`);
const TYPES = new Set(['message.updated', 'reaction.created', 'reaction.updated']);

process.once('message', async ({ namespace, natsUrl, messageIds }) => {
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
    if (m === 'report') process.send({ report: Object.fromEntries(Object.entries(at).map(([k, v]) => [k, [...v]])) });
    if (m === 'arrived') process.send({ arrived: [...at.arrival.keys()] });
    if (m === 'stop') {
      await nc.close();
      await receiver.close();
      process.exit(0);
    }
  });
  process.send({ url: receiver.url });
});
