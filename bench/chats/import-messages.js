'use strict';
/**
 * Throughput of chats.v1.import.messages through NATS (the importer's path): a chats RPC server on
 * a throw-away database, batches of MAX_IMPORT_BATCH spec 2.1 message objects over CHATS chats,
 * `INFLIGHT` batches at a time; then the same history again (every item skipped). Prints msg/s.
 *   node bench/chats/import-messages.js [messages=20000] [inflight=2]
 */
const { connect } = require('nats');
const { ImportMessagesRpc, MAX_IMPORT_BATCH } = require('@mapi/contracts');
const { CHATS_HANDLERS } = require('@mapi/chats-feature');
const { NatsRpcClient, NatsRpcServer, bindHandlers, createLogger } = require('@mapi/platform');
const { createOrg, createPhone, phoneDirectoryFromDb } = require('@mapi/testing');
const { createPrismaClient } = require('@mapi/db');
const { randomUUID } = require('node:crypto');
const { guardBench } = require('../lib/cleanup');
const { openBenchDatabase } = require('../lib/database');

const TOTAL = Number(process.argv[2] ?? 20_000);
const INFLIGHT = Number(process.argv[3] ?? 2);
const CHATS = 40;
const NS = `bench-import-${process.pid}`;

function messageObject(orgId, orgPhone, i) {
  const chat = `4915${String(1_000_000 + (i % CHATS)).padStart(8, '0')}@c.us`;
  const fromMe = i % 3 === 0;
  const unique = `BENCH${i.toString(36).toUpperCase().padStart(12, '0')}`;
  const id = `${fromMe}_${chat}_${unique}`;
  const ts = new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString().slice(0, 19) + '+00:00';
  return {
    message_id: id,
    unique_id: unique,
    id: { from_me: fromMe, id: unique, remote: chat, serialized: id },
    chat_id: chat,
    org_id: orgId,
    org_phone: orgPhone,
    sender_phone: fromMe ? orgPhone : chat,
    from_me: fromMe,
    body: `message ${i} with a few words of text in it`,
    prev_body: null,
    message_type: 'chat',
    timestamp: ts,
    updated_at: ts.replace('+00:00', '.000+00:00'),
    ack: fromMe ? '3' : '1',
    delivery_info: { delivered_count: fromMe ? 1 : 0, read_count: fromMe ? 1 : 0, pending: [] },
    mentioned_ids: [],
    media: null,
    fts: null,
    broadcast: null,
    sent_message_id: null,
    author: null,
    broadcast_id: null,
    device_type: 'android',
    duration: null,
    flag_metadata: null,
    flag_response_time: null,
    flag_status: null,
    forwarding_score: 0,
    from: fromMe ? orgPhone : chat,
    has_media: false,
    has_quoted_msg: false,
    has_reaction: false,
    interactive: null,
    invite_v4: null,
    is_deleted: false,
    is_ephemeral: null,
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
    to: fromMe ? chat : orgPhone,
    token: null,
    vcards: [],
  };
}

const fs = require('node:fs');
const TICK = 100; // USER_HZ of /proc/<pid>/stat
/** CPU seconds of this process and of the database's server processes of the bench database (same machine). */
async function cpuSeconds(prisma) {
  const pids = (await prisma.$queryRaw`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`).map((r) => r.pid);
  let pg = 0;
  for (const pid of pids) {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      pg += (Number(f[11]) + Number(f[12])) / TICK;
    } catch {
      // the process ended
    }
  }
  const u = process.cpuUsage();
  return { node: (u.user + u.system) / 1e6, pg };
}

async function pass(rpc, ctx, batches, prisma) {
  const counts = {};
  const cpu0 = await cpuSeconds(prisma);
  const started = process.hrtime.bigint();
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const items = batches[next++];
      const { results } = await rpc.call(ImportMessagesRpc, { ctx, body: { items } }, { timeoutMs: 60_000 });
      for (const r of results) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: INFLIGHT }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu1 = await cpuSeconds(prisma);
  return { seconds, counts, cpu: { node: cpu1.node - cpu0.node, pg: cpu1.pg - cpu0.pg } };
}

const { cleanups, run } = guardBench(10 * 60_000);
run(async () => {
  const { db } = await openBenchDatabase('bench_import_messages', cleanups);
  const prisma = createPrismaClient({ url: db.url, poolSize: 4 });
  cleanups.push(() => prisma.$disconnect());
  const org = await createOrg(prisma);
  const phone = await createPhone(prisma, org.id);
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  cleanups.push(() => nc.close());
  const handlers = bindHandlers(CHATS_HANDLERS, { prisma, phoneDirectory: phoneDirectoryFromDb(prisma), sessions: null });
  const server = new NatsRpcServer({ nc, namespace: NS, handlers, logger: createLogger('bench', 'warn') });
  await server.listen();
  const rpc = new NatsRpcClient(nc, NS, 60_000);
  const ctx = { org_id: org.id, token_id: randomUUID(), phone_scope: null, phone: null, member: null };
  const batches = [];
  for (let i = 0; i < TOTAL; i += MAX_IMPORT_BATCH) {
    batches.push(
      Array.from({ length: Math.min(MAX_IMPORT_BATCH, TOTAL - i) }, (_, k) => {
        const message = messageObject(org.id, phone.org_phone, i + k);
        return { source_id: message.message_id, phone_id: phone.phone_id, message };
      }),
    );
  }
  // CPU seconds (this process: client and server; Postgres: the bench database's backends) tell the
  // cost apart from the wait on a machine other work shares: 2 cores / CPU per message bounds the rate.
  for (const [name, result] of [
    ['first run', await pass(rpc, ctx, batches, prisma)],
    ['second run', await pass(rpc, ctx, batches, prisma)],
  ]) {
    const cpu = result.cpu.node + result.cpu.pg;
    console.log(
      `${name}: ${TOTAL} messages in ${result.seconds.toFixed(2)} s = ${Math.round(TOTAL / result.seconds)} msg/s`,
      result.counts,
      `cpu: node ${result.cpu.node.toFixed(2)} s + postgres ${result.cpu.pg.toFixed(2)} s = ${Math.round(TOTAL / cpu)} msg per cpu-second`,
    );
  }
  console.log('rows:', await prisma.message.count({ where: { org_id: org.id } }));
});
