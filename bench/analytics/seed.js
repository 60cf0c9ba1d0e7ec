'use strict';
/**
 * Seeds one organization's analytics tables directly in SQL (generate_series, one statement per table), with the
 * facts of `messages` messages and `tickets` tickets over `days` days, as the ingestion would have stored them:
 *  - exchanges: messages / 4 of them, each on a chat (skewed: a few chats talk much more), at a time of the period
 *    (more by day than by night), two incoming messages 20 s apart, then two outgoing ones from a member (10 %:
 *    the API, no sender) after a log-normal response time (median 2 min, long tail), the second 60 s later;
 *  - analytics_messages: the 4 messages of each exchange (1 % of the incoming ones flagged);
 *  - analytics_message_slots / analytics_chat_slots: the 15-minute counters summed from those messages;
 *  - analytics_member_slots: the messages each member sent per 15-minute slot and chat;
 *  - analytics_responses: one sample per exchange (a next response when the chat had an earlier exchange), its responder;
 *  - analytics_response_buckets: the samples' histograms (regroupedSql of the service: what the ingestion keeps);
 *  - analytics_chat_states: one per chat (10 % waiting, their flagged counts);
 *  - analytics_tickets: on random chats, 10 % open, 10 % in progress, the rest closed, 90 % assigned;
 *  - analytics_sla_timers: 200 open breaches (the "breaching" list of /now).
 */

const LOG_NORMAL_MS = (median, sigma) =>
  `(${median}::float8 * exp(${sigma}::float8 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())))`;

/** `regroupedSql`: the service's regrouping of an organization's samples into histogram rows (ingest/response-buckets). */
async function seedOrganization(pg, { orgId, messages, tickets, days, phones, chats, members, end, regroupedSql }) {
  const exchanges = Math.floor(messages / 4);
  const start = new Date(end.getTime() - days * 86_400_000);
  const t0 = Date.now();
  const step = async (label, sql, params = []) => {
    const s = Date.now();
    const r = await pg.query(sql, params);
    console.log(`  ${label}: ${r.rowCount ?? ''} rows, ${((Date.now() - s) / 1000).toFixed(1)} s`);
  };
  await pg.query(`SELECT setseed(0.34)`);
  // chat: skewed (c = chats · u²); time: the period's day k·days/E with its hour pulled towards the day (sin weight)
  await step(
    'exchanges',
    `CREATE UNLOGGED TABLE bench_exchanges AS
     SELECT k, c, 'phone-' || (c % $4) AS phone_id, 'c' || c || '@c.us' AS chat_id, at,
       greatest(1000, least(${LOG_NORMAL_MS(120_000, 1.4)}, 86400000))::bigint AS resp_ms,
       CASE WHEN random() < 0.1 THEN NULL ELSE 'member' || ((c + k % 3) % $5) || '@bench.test' END AS member
     FROM (SELECT k, floor($3::int * power(random(), 2))::int AS c,
             $1::timestamptz + floor(k::float8 * $6::float8 / $2::int) * interval '1 day'
               + (0.5 - 0.5 * cos(pi() * random())) * 86400 * interval '1 second' AS at
           FROM generate_series(0, $2::int - 1) k) e`,
    [start, exchanges, chats, phones, members, days],
  );
  await pg.query(`CREATE INDEX ON bench_exchanges (c, k)`);
  await step(
    'analytics_messages',
    `INSERT INTO analytics_messages (org_id, phone_id, message_id, chat_id, at, from_me, flagged, flag_version, performed_by)
     SELECT $1::uuid, phone_id, 'm' || lpad(k::text, 9, '0') || '-' || j, chat_id, m.at, j >= 2, j < 2 AND random() < 0.01, m.at,
       CASE WHEN j >= 2 THEN member END
     FROM bench_exchanges, generate_series(0, 3) j,
       LATERAL (SELECT at + (CASE j WHEN 0 THEN 0 WHEN 1 THEN 20000 WHEN 2 THEN resp_ms ELSE resp_ms + 60000 END) * interval '1 millisecond' AS at) m`,
    [orgId],
  );
  const slot = `to_timestamp(floor(extract(epoch FROM at) / 900) * 900)`;
  await step(
    'analytics_message_slots',
    `INSERT INTO analytics_message_slots (org_id, slot, phone_id, incoming, outgoing, flagged)
     SELECT org_id, ${slot}, phone_id, count(*) FILTER (WHERE NOT from_me), count(*) FILTER (WHERE from_me), count(*) FILTER (WHERE flagged)
     FROM analytics_messages WHERE org_id = $1::uuid GROUP BY 1, 2, 3`,
    [orgId],
  );
  await step(
    'analytics_chat_slots',
    `INSERT INTO analytics_chat_slots (org_id, slot, phone_id, chat_id, incoming, outgoing, flagged)
     SELECT org_id, ${slot}, phone_id, chat_id, count(*) FILTER (WHERE NOT from_me), count(*) FILTER (WHERE from_me), count(*) FILTER (WHERE flagged)
     FROM analytics_messages WHERE org_id = $1::uuid GROUP BY 1, 2, 3, 4`,
    [orgId],
  );
  await step(
    'analytics_member_slots',
    `INSERT INTO analytics_member_slots (org_id, slot, phone_id, chat_id, member, sent)
     SELECT org_id, ${slot}, phone_id, chat_id, performed_by, count(*)
     FROM analytics_messages WHERE org_id = $1::uuid AND from_me AND performed_by IS NOT NULL GROUP BY 1, 2, 3, 4, 5`,
    [orgId],
  );
  await step(
    'analytics_responses',
    `INSERT INTO analytics_responses (org_id, phone_id, chat_id, incoming_message_id, incoming_at, response_message_id, response_at, response_ms,
       is_next, responder)
     SELECT $1::uuid, phone_id, chat_id, 'm' || lpad(k::text, 9, '0') || '-0', at, 'm' || lpad(k::text, 9, '0') || '-2',
       at + resp_ms * interval '1 millisecond', resp_ms, k > min(k) OVER (PARTITION BY c), member
     FROM bench_exchanges`,
    [orgId],
  );
  await step(
    'analytics_response_buckets',
    `INSERT INTO analytics_response_buckets (org_id, unit, business, start, phone_id, is_next, bucket, n) ${regroupedSql}`,
    [orgId],
  );
  await step(
    'analytics_chat_states',
    `INSERT INTO analytics_chat_states (org_id, phone_id, chat_id, waiting_since, waiting_message_id, last_outgoing_at, last_message_at, flagged_count)
     SELECT $1::uuid, phone_id, chat_id, CASE WHEN c % 10 = 0 THEN max(at) END, CASE WHEN c % 10 = 0 THEN 'm-waiting-' || c END,
       max(at), max(at), (c % 7 = 0)::int * (1 + c % 3)
     FROM bench_exchanges GROUP BY c, phone_id, chat_id`,
    [orgId],
  );
  await step(
    'analytics_tickets',
    `INSERT INTO analytics_tickets (org_id, ticket_id, phone_id, chat_id, status, assignee, created_at, first_assigned_at, closed_at, closed_by, version, event_at)
     SELECT $1::uuid, 't' || i, 'phone-' || (c % $4), 'c' || c || '@c.us', status, assignee, created_at,
       CASE WHEN assignee IS NOT NULL THEN created_at + ${LOG_NORMAL_MS(600_000, 1.2)} * interval '1 millisecond' END,
       CASE WHEN status = 'closed' THEN created_at + ${LOG_NORMAL_MS(7_200_000, 1.5)} * interval '1 millisecond' END,
       CASE WHEN status = 'closed' THEN assignee END, created_at, created_at
     FROM (SELECT i, floor($3::int * power(random(), 2))::int AS c,
             CASE WHEN i % 10 = 0 THEN 'open' WHEN i % 10 = 1 THEN 'inprogress' ELSE 'closed' END AS status,
             CASE WHEN random() < 0.1 THEN NULL ELSE 'member' || (i % $5) || '@bench.test' END AS assignee,
             $6::timestamptz + i::float8 * $7::float8 / $2::int * interval '1 day' AS created_at
           FROM generate_series(0, $2::int - 1) i) t`,
    [orgId, tickets, chats, phones, members, start, days],
  );
  await step(
    'analytics_sla_timers',
    `WITH p AS (INSERT INTO analytics_sla_policies (policy_id, org_id, name, kind, minutes, created_at, updated_at)
                VALUES (gen_random_uuid(), $1::uuid, 'bench', 'first_response', 30, now(), now()) RETURNING policy_id)
     INSERT INTO analytics_sla_timers (org_id, policy_id, phone_id, chat_id, message_id, started_at, due_at, state, fired_at)
     SELECT $1::uuid, p.policy_id, 'phone-' || (i % $2), 'c' || (i * 10) || '@c.us', 'm-waiting-' || (i * 10),
       $3::timestamptz - i * interval '1 minute', $3::timestamptz - i * interval '1 minute' + interval '30 minutes', 'breached',
       $3::timestamptz - i * interval '1 minute' + interval '30 minutes'
     FROM p, generate_series(1, 200) i`,
    [orgId, phones, end],
  );
  await pg.query(`DROP TABLE bench_exchanges`);
  console.log(`  seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}

module.exports = { seedOrganization };
