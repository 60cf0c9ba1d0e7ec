#!/usr/bin/env node
'use strict';
/**
 * How fast the chats service applies edits and reactions (issue 16): the ingestion use case alone, in
 * this process, against a throw-away database: BENCH_CHANGES changes (reactions and edits alternately,
 * each reaction a new emoji of its sender, so every change is one event) over BENCH_MESSAGES stored
 * messages, in batches of BENCH_BATCH (200: the ingest consumer's batch), one batch after another as
 * the consumer applies them. Reports changes/s and the batch time p50/p99; the outbox is checked to
 * hold exactly one event per change.
 *
 * Usage: bash scripts/build.sh && node bench/chats/changes-ingest.js (uses the built chats-feature; run
 * the same file from another checkout's tree to compare builds in one sitting).
 * Knobs: BENCH_CHANGES (4000), BENCH_MESSAGES (400), BENCH_BATCH (200).
 */
const os = require('node:os');
const { createTestDatabase, createOrg, createPhone, randomDigits } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { ApplyIngest } = require('@mapi/chats-feature/internals');

const CHANGES = Number(process.env.BENCH_CHANGES || 4000);
const MESSAGES = Number(process.env.BENCH_MESSAGES || 400);
const BATCH = Number(process.env.BENCH_BATCH || 200);
const pct = (s, p) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];

async function main() {
  const load = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  const db = await createTestDatabase('mapi_bench_changes');
  const prisma = createPrismaClient({ url: db.url, poolSize: 4 });
  try {
    const org = await createOrg(prisma);
    const phone = await createPhone(prisma, org.id);
    const p = { org_id: org.id, phone_id: phone.phone_id, org_phone: phone.org_phone };
    const apply = new ApplyIngest(prisma);
    const people = Array.from({ length: 40 }, () => `${randomDigits()}@c.us`);
    const messages = Array.from({ length: MESSAGES }, (_, i) => ({
      chat_id: people[i % people.length],
      unique_id: `B${i}${randomDigits(6)}`,
      from_me: false,
      sender_phone: people[i % people.length],
      body: `hello ${i}`,
      message_type: 'chat',
      timestamp: new Date().toISOString(),
      ack: 0,
    }));
    for (let i = 0; i < messages.length; i += 200)
      await apply.execute([{ ...p, kind: 'messages-upsert', type: 'notify', messages: messages.slice(i, i + 200) }]);
    const before = await prisma.outboxEvent.count({ where: { org_id: org.id } });
    const changes = Array.from({ length: CHANGES }, (_, i) => {
      const m = messages[i % messages.length];
      const key = { chat_id: m.chat_id, unique_id: m.unique_id, from_me: false };
      if (i % 2) return { ...p, kind: 'edit', ...key, body: `edit ${i}` };
      const at = 1_700_000_000_000 + i;
      return {
        ...p,
        kind: 'reaction',
        ...key,
        reaction: { reaction_id: `RX${i}`, sender_phone: m.chat_id, reaction: `e${i}`, timestamp: new Date(at).toISOString() },
      };
    });
    console.log(`changes ingest: ${CHANGES} changes in batches of ${BATCH} over ${MESSAGES} messages; load ${load()}`);
    const times = [];
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < changes.length; i += BATCH) {
      const s = process.hrtime.bigint();
      await apply.execute(changes.slice(i, i + BATCH));
      times.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const events = (await prisma.outboxEvent.count({ where: { org_id: org.id } })) - before;
    times.sort((a, b) => a - b);
    const result = {
      changes: CHANGES,
      batch: BATCH,
      per_s: Math.round((CHANGES / ms) * 1000),
      batch_ms: { p50: Math.round(pct(times, 50)), p99: Math.round(pct(times, 99)) },
      events,
      one_event_per_change: events === CHANGES,
      load: load(),
    };
    console.log(JSON.stringify(result));
  } finally {
    await prisma.$disconnect();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
