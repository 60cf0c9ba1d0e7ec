'use strict';
/**
 * The chats consumer alone: messages-upsert events written straight to the ingest stream, as the
 * phones service would (same subject, schema and Nats-Msg-Id), as fast as JetStream stores them.
 * Each message's timestamp is the moment its event was handed to JetStream.
 */
const { createHash, randomBytes } = require('node:crypto');
const { ingestKindSubject } = require('@mapi/contracts');
const { ingestSubject } = require('@mapi/events');
const { JSONCodec } = require('nats');
const { bodyOf } = require('./feeder');

const codec = JSONCodec();

function eventOf(phone, count, seq, type = 'notify') {
  const timestamp = new Date().toISOString();
  const messages = [];
  for (let k = 0; k < count; k++) {
    const i = seq + k;
    const chat = phone.chats[i % phone.chats.length];
    messages.push({
      chat_id: chat,
      unique_id: `3EB0${randomBytes(8).toString('hex').toUpperCase()}`,
      from_me: false,
      sender_phone: chat,
      body: bodyOf(i),
      message_type: 'chat',
      timestamp,
      ack: 0,
      media: null,
    });
  }
  return { org_id: phone.org_id, phone_id: phone.phone_id, org_phone: phone.org_phone, kind: 'messages-upsert', type, messages };
}

/** `total` messages of `phone` as events of `perEvent`. */
function ingestEvents(phone, total, perEvent, type = 'notify') {
  const out = [];
  for (let seq = 0; seq < total; seq += perEvent) out.push(eventOf(phone, Math.min(perEvent, total - seq), seq, type));
  return out;
}

/** Publishes `total` messages in events of `perEvent`, keeping `inflight` publishes pending. */
async function publishDirect({ nc, namespace, phone, total, perEvent, inflight = 32 }) {
  const js = nc.jetstream();
  const subject = ingestSubject(namespace, ingestKindSubject('messages-upsert'));
  const start = Date.now();
  let seq = 0;
  const pending = new Set();
  while (seq < total) {
    const n = Math.min(perEvent, total - seq);
    const event = eventOf(phone, n, seq);
    seq += n;
    const body = JSON.stringify(event);
    const msgID = createHash('sha256').update(body).digest('hex').slice(0, 32);
    const p = js.publish(subject, codec.encode(event), { msgID }).finally(() => pending.delete(p));
    pending.add(p);
    if (pending.size >= inflight) await Promise.race(pending);
  }
  await Promise.all(pending);
  return { offered: total, events: Math.ceil(total / perEvent), seconds: (Date.now() - start) / 1000 };
}

module.exports = { publishDirect, ingestEvents };
