#!/usr/bin/env node
'use strict';
/**
 * CPU of reviving, mapping and stringifying one 2000-message page in one process (messageFromJson +
 * mapMessage + JSON.stringify, the chats service's and the raw baseline's share of a page), on
 * synthetic rows shaped as `row_to_json(m)` gives them. With BENCH_BEFORE_ROOT (a built checkout of an
 * earlier commit) its chats-feature is measured interleaved with this tree's, after checking both give
 * the same bytes. Usage: bash scripts/build.sh && node bench/messages/revive-cost.js
 */
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const { internalsOf } = require('../lib/internals');

const load = (root) => internalsOf(root, 'chats-feature');
const ways = [['now', load(ROOT)]];
if (process.env.BENCH_BEFORE_ROOT) ways.unshift(['before', load(path.resolve(process.env.BENCH_BEFORE_ROOT))]);

const row = (i) =>
  JSON.stringify({
    id: i,
    org_id: '94b734fc-a2b2-48d8-9515-b0219a3c43f3',
    phone_id: 'phone-abc',
    chat_id: '12345@c.us',
    message_id: `true_12345@c.us_${i}`,
    unique_id: `ABCDEF${i}`,
    org_phone: '447700900000',
    sender_phone: '447700900001',
    from_me: i % 2 === 0,
    body: 'x'.repeat(100),
    prev_body: null,
    message_type: 'chat',
    timestamp: '2026-11-20T10:00:00+00:00',
    updated_at: '2026-11-20T10:00:00.123+00:00',
    ack: 2,
    delivery_info: { delivered: [], read: [] },
    mentioned_ids: [],
    media: null,
    fts: null,
    broadcast: false,
    sent_message_id: null,
    author: null,
    broadcast_id: null,
    device_type: 'android',
    duration: null,
    flag_metadata: null,
    flag_response_time: null,
    flag_status: null,
    forwarding_score: 0,
    from: '12345@c.us',
    has_media: false,
    has_quoted_msg: false,
    has_reaction: false,
    interactive: null,
    invite_v4: null,
    is_deleted: false,
    is_ephemeral: false,
    is_forwarded: false,
    is_gif: false,
    is_starred: false,
    is_status: false,
    links: null,
    location: null,
    media_key: null,
    message_ticket_id: null,
    order_id: null,
    performed_by: null,
    poll_info: null,
    poll_results: null,
    quoted_message_id: null,
    raw_data: null,
    to: '447700900000@c.us',
    token: null,
    vcards: null,
  });
const rows = Array.from({ length: 2000 }, (_, i) => row(i));
const page = (m) => JSON.stringify(rows.map((t) => m.mapMessage(m.messageFromJson(t).row)));
if (ways.length > 1 && page(ways[0][1]) !== page(ways[1][1])) throw new Error('before and now give different pages');
for (let r = 0; r < 6; r++) {
  for (const [name, m] of ways) {
    const t0 = process.cpuUsage();
    for (let k = 0; k < 20; k++) page(m);
    const u = process.cpuUsage(t0);
    console.log(`${name.padEnd(7)} ${((u.user + u.system) / 20000).toFixed(1)} ms CPU per 2000-message page`);
  }
}
