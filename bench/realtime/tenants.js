'use strict';
/**
 * The multi-tenant phase of the realtime bench: BENCH_RT_CLIENTS clients spread over
 * BENCH_RT_TENANTS organizations, each with one connected sandbox phone; half of each tenant's
 * clients name the phone in x-phone, half do not. Inbound sandbox messages arrive at BENCH_RT_RATE
 * in all, round-robin over the tenants, and travel the whole pipeline (phones → ingest stream →
 * chats → outbox → JetStream → gateway) to the tenant's clients only. A delivery to a client of
 * another tenant is counted as a leak (and must be 0).
 * How a message arrives (BENCH_RT_INJECT):
 *  - network (default): as the messaging network hands it to the phone, the way inbound traffic
 *    really arrives: the sandbox network's rows are written (every 10 ms, one statement for what is
 *    due) and each phone's session is nudged over NATS, exactly as the control API does. Latency =
 *    client callback − the moment the message was due (so the 10 ms batching counts against us).
 *  - http: one POST /v1/sandbox/messages per message with the tenant's own token (the test tool's
 *    path: gateway and phones also pay an HTTP request and an RPC per message). Latency = callback −
 *    the moment the POST was sent.
 */
const { randomBytes } = require('node:crypto');
const { eventSubject } = require('@mapi/events');
const { createOrg, createPhone, createToken, randomDigits } = require('@mapi/testing');

const INJECT = process.env.BENCH_RT_INJECT || 'network';

/**
 * The network side: messages due are written to sandbox_messages, each with its sandbox_pending
 * row, every `tickMs` in one statement (what the control API writes, many rows at once), then
 * every phone touched is nudged.
 */
function networkInjector(prisma, nc, namespace, tickMs = 10) {
  let due = [];
  const flush = async () => {
    if (!due.length) return;
    const batch = due;
    due = [];
    const at = new Date();
    await prisma.$executeRawUnsafe(
      `WITH m AS (
         INSERT INTO sandbox_messages (phone_id, chat_id, unique_id, from_me, sender, body, message_type, timestamp, ack)
         SELECT p, c, u, false, c, b, 'chat', $5::timestamptz, 0 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x(p, c, u, b)
         RETURNING id, phone_id, ack)
       INSERT INTO sandbox_pending (message_id, phone_id, new_message, ack) SELECT id, phone_id, true, ack FROM m`,
      batch.map((m) => m.phone_id),
      batch.map((m) => m.chat_id),
      batch.map(() => `3EB0${randomBytes(8).toString('hex').toUpperCase()}`),
      batch.map((m) => m.body),
      at,
    );
    for (const phoneId of new Set(batch.map((m) => m.phone_id)))
      nc.publish(`${namespace}.sandbox.notify.${phoneId}`, JSON.stringify({ kind: 'messages' }));
  };
  let running = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(flush).catch((err) => console.error('network injector: insert failed', err));
  }, tickMs);
  return {
    add: (phone_id, chat_id, body) => due.push({ phone_id, chat_id, body }),
    stop: async () => {
      clearInterval(timer);
      await (running = running.then(flush));
    },
  };
}

async function makeTenants(prisma, count) {
  const tenants = [];
  for (let i = 0; i < count; i++) {
    const org = await createOrg(prisma, { plan: 'enterprise' });
    const { token } = await createToken(prisma, org.id);
    const number = randomDigits();
    const phone = await createPhone(prisma, org.id, { connector: 'sandbox', org_phone: `${number}@c.us`, phone_name: `bench ${i}` });
    // What POST /v1/sandbox/phones/scan leaves behind: the network sees the phone paired and connected.
    await prisma.$executeRaw`INSERT INTO sandbox_devices (phone_id, org_id, number, state) VALUES (${phone.phone_id}, ${org.id}::uuid, ${number}, 'CONNECTED')`;
    tenants.push({
      index: i,
      org_id: org.id,
      token,
      phone_id: phone.phone_id,
      chats: Array.from({ length: 5 }, () => `${randomDigits()}@c.us`),
    });
  }
  return tenants;
}

/**
 * @param {object} h helpers from run.js: prisma, base, clientsTotal, tenantsTotal, connect(headers, onEvent),
 *   atRate(send), summary(values), waitFor(fn, ms, label), meter()
 */
async function tenantsPhase(h) {
  const tenants = await makeTenants(h.prisma, h.tenantsTotal);
  const perTenant = Math.max(1, Math.floor(h.clientsTotal / h.tenantsTotal));
  const sentAt = new Map(); // body → { t0, tenant }
  const lat = [];
  let leaks = 0;
  let warm = new Set();
  const t = Date.now();
  for (const tenant of tenants) {
    await Promise.all(
      Array.from({ length: perTenant }, (_, k) => {
        const headers = { Authorization: `Bearer ${tenant.token}`, ...(k % 2 ? { 'x-phone': tenant.phone_id } : {}) };
        return h.connect(headers, (data) => {
          const sent = sentAt.get(data.body);
          if (!sent) return;
          if (sent.tenant !== tenant.index) leaks++;
          else if (sent.warm) warm.add(`${tenant.index}:${k}`);
          else lat.push(Date.now() - sent.t0);
        });
      }),
    );
  }
  const connectMs = Date.now() - t;
  const post = (tenant, body) =>
    fetch(`${h.base}/v1/sandbox/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.token}`, 'x-phone': tenant.phone_id, 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: tenant.chats[Math.floor(Math.random() * tenant.chats.length)], body }),
    }).then(async (r) => ({ status: r.status, body: await r.json() }));

  // Warm-up: one message per tenant, until every client has seen its own (sessions started, consumers bound).
  for (const tenant of tenants) {
    const body = `warm ${tenant.index}`;
    sentAt.set(body, { t0: Date.now(), tenant: tenant.index, warm: true });
    const r = await post(tenant, body);
    if (r.status !== 200) throw new Error(`warm-up POST answered ${r.status}: ${JSON.stringify(r.body)}`);
  }
  await h.waitFor(() => warm.size >= perTenant * tenants.length, 120_000, 'tenants warm-up');

  // When each event reached NATS (a core subscription sees every JetStream publish on the subject).
  const onNats = [];
  const sub = h.nc.subscribe(eventSubject(h.namespace, 'message.created'), {
    callback: (_e, m) => {
      const body = m.json()?.data?.body;
      const sent = sentAt.get(body);
      if (sent && !sent.warm) onNats.push(Date.now() - sent.t0);
    },
  });
  const cpu = h.meter();
  let failed = 0;
  const failures = {};
  const fail = (why) => {
    failed++;
    failures[why] = (failures[why] ?? 0) + 1;
  };
  const injector = INJECT === 'network' ? networkInjector(h.prisma, h.nc, h.namespace) : null;
  const sent = await h.atRate((i) => {
    const tenant = tenants[i % tenants.length];
    const body = `tenant ${tenant.index} msg ${i}`;
    sentAt.set(body, { t0: Date.now(), tenant: tenant.index });
    const chat = tenant.chats[Math.floor(Math.random() * tenant.chats.length)];
    if (injector) return injector.add(tenant.phone_id, chat, body);
    post(tenant, body).then(
      (r) => (r.status === 200 ? undefined : fail(`${r.status} ${r.body?.code ?? r.body?.error ?? ''}`)),
      (e) => fail(String(e.cause?.code ?? e.message)),
    );
  });
  await injector?.stop();
  await h.waitFor(() => lat.length >= (sent - failed) * perTenant, 120_000, 'tenant deliveries');
  sub.unsubscribe();
  const stages = {
    ...(await stageTimes(
      h.prisma,
      tenants.map((t) => t.org_id),
    )),
    post_to_nats: h.summary(onNats),
  };
  return {
    inject: INJECT,
    stages,
    tenants: tenants.length,
    clients_per_tenant: perTenant,
    connect_ms: connectMs,
    messages: sent,
    failed_posts: failed,
    failures,
    leaks,
    ...h.summary(lat),
    ...cpu(),
  };
}

/**
 * Where the time went, from the rows themselves (ms, p50 / p99 over the run's messages): the sandbox
 * row's timestamp (due / the POST) → stored in messages (chats' insert, updated_at). On NATS is
 * measured by the bench's own subscription; the rest, to the callback, is the gateway's fan-out.
 */
async function stageTimes(prisma, orgIds) {
  const rows = await prisma.$queryRawUnsafe(
    `WITH s AS (
       SELECT extract(epoch FROM m.updated_at - sm.timestamp) * 1000 AS to_stored
       FROM messages m
       JOIN sandbox_messages sm ON sm.phone_id = m.phone_id AND sm.unique_id = m.unique_id
       WHERE m.org_id = ANY($1::uuid[]) AND m.body LIKE 'tenant %')
     SELECT count(*)::int AS n,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY to_stored) AS stored_p50, percentile_disc(0.99) WITHIN GROUP (ORDER BY to_stored) AS stored_p99
     FROM s`,
    orgIds,
  );
  const r = rows[0];
  const ms = (v) => (v === null ? null : Math.round(Number(v)));
  return { n: r.n, post_to_stored_ms: [ms(r.stored_p50), ms(r.stored_p99)] };
}

module.exports = { tenantsPhase };
