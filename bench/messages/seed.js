'use strict';
/**
 * Seeds the bench database with plain SQL (INSERT ... SELECT over generate_series, in a few large
 * batches): one organization, three phones, a token, and MESSAGES messages spread over OTHER_CHATS
 * ordinary chats plus one big group chat holding BIG_CHAT_MESSAGES of them. Rows of all chats are
 * interleaved in time (as they arrive in real life), so a chat's messages are scattered over the
 * heap rather than stored contiguously. Then VACUUM ANALYZE.
 */
const { createOrg, createPhone, createToken } = require('@mapi/testing');

// Text the bodies are cut from: chat-like sentences, some accents and emoji (multi-byte UTF-8).
const CORPUS = [
  'Hi! Is the order #4411 still on its way? I paid yesterday evening.',
  'Olá, tudo bem? Gostaria de saber o preço da entrega para São Paulo amanhã.',
  'ok 👍',
  'Thanks a lot 🙏 see you tomorrow at 10:30',
  'नमस्ते, मेरा ऑर्डर कब आएगा?',
  'Please share the invoice as PDF, the previous one had the wrong GST number on it.',
  'Can you call me back? I am in a meeting until 4 pm.',
  'Yes',
  'No problem 😊',
  'The delivery partner says the address is incomplete, please send the full address with landmark and pincode.',
  '¿Tienen disponible la talla M en azul? Si no, la L está bien.',
  'Reminder: your appointment is confirmed for Monday 09:00. Reply STOP to opt out.',
  'Payment received, thank you! Your receipt number is RCPT-2024-008812.',
  'I have attached the photos of the damaged package, the box was open when it arrived and two items are missing.',
  'Good morning everyone ☀️ today we start the stock count at 8, please be on time.',
  'Haha 😂😂',
  'Where is the location?',
  'Sent you the link: https://example.com/track/9F3K2L',
].join(' ');
const CORPUS3 = [CORPUS, CORPUS, CORPUS].join(' ');

const THUMB =
  'data:image/jpeg;base64,' +
  Buffer.alloc(750, 0)
    .map((_, i) => (i * 37 + 11) & 0xff)
    .toString('base64');

function insertSql() {
  // $1 org_id, $2 phone ids[], $3 org phones[], $4 big chat id, $5 corpus, $6 thumbnail,
  // $7 first i, $8 last i, $9 number of other chats, $10 every how many rows one goes to the big chat
  return `
  INSERT INTO messages (org_id, phone_id, chat_id, message_id, unique_id, org_phone, sender_phone, from_me,
    body, message_type, "timestamp", updated_at, ack, delivery_info, mentioned_ids, media, fts,
    author, device_type, "from", "to", has_media, has_quoted_msg, has_reaction, is_forwarded, forwarding_score,
    is_starred, is_status, is_ephemeral, is_gif, is_deleted, quoted_message_id, links)
  SELECT $1::uuid, phone_id, chat_id,
         (CASE WHEN from_me THEN 'true' ELSE 'false' END) || '_' || chat_id || '_' || unique_id,
         unique_id, org_phone,
         CASE WHEN from_me THEN org_phone WHEN is_group THEN sender ELSE chat_id END,
         from_me, body,
         CASE WHEN has_media THEN 'image' ELSE 'chat' END,
         ts, ts + ((h % 5000) * interval '1 millisecond'),
         CASE WHEN from_me THEN (h % 4)::smallint ELSE 0::smallint END,
         CASE WHEN from_me AND is_group
              THEN jsonb_build_object('delivered_count', 3, 'read_count', h % 3, 'pending', '[]'::jsonb)
              ELSE '{"delivered_count":0,"read_count":0,"pending":[]}'::jsonb END,
         CASE WHEN is_group AND h % 20 = 0 THEN ARRAY[sender] ELSE ARRAY[]::text[] END,
         CASE WHEN has_media THEN jsonb_build_object(
              'dimensions', jsonb_build_object('ar', 0.75, 'height', 1600, 'width', 1200),
              'filename', unique_id || '.jpeg', 'mimetype', 'image/jpeg',
              'path', 'media/' || $1::text || '/' || unique_id || '.jpeg', 'size', 40000 + h % 200000,
              'thumbnail', $6::text) END,
         lower(body),
         CASE WHEN is_group AND NOT from_me THEN sender END,
         (ARRAY['android','ios','web'])[1 + (h % 3)],
         CASE WHEN from_me THEN org_phone ELSE chat_id END,
         CASE WHEN from_me THEN chat_id ELSE org_phone END,
         has_media, h % 17 = 0, h % 23 = 0, h % 31 = 0, CASE WHEN h % 31 = 0 THEN 1 ELSE 0 END,
         false, false, false, false, false,
         CASE WHEN h % 17 = 0 THEN 'false_' || chat_id || '_3EB0' || upper(lpad(to_hex(i - 3), 16, '0')) END,
         CASE WHEN h % 29 = 0 THEN '[{"link":"https://example.com/track/9F3K2L","isSuspicious":false}]'::jsonb END
  FROM (
    SELECT i, h, chat_id, is_group, phone_id, org_phone, from_me, ts, unique_id, has_media, sender,
           CASE WHEN has_media AND h % 2 = 0 THEN NULL
                ELSE substr($5::text, 1 + (h % 1500)::int,
                            CASE WHEN h % 10 = 0 THEN 200 + (h % 700)::int ELSE 3 + (h % 110)::int END) END AS body
    FROM (
      SELECT i, h,
             CASE WHEN i % $10 = 0 THEN $4::text
                  ELSE '91' || lpad(((i * 7919) % $9)::text, 10, '0') || '@c.us' END AS chat_id,
             i % $10 = 0 AS is_group,
             ($2::text[])[1 + (i % 3)::int] AS phone_id,
             ($3::text[])[1 + (i % 3)::int] AS org_phone,
             h % 100 < 45 AS from_me,
             timestamptz '2024-01-01 00:00:00+00' + i * interval '25 seconds' AS ts,
             '3EB0' || upper(lpad(to_hex(i), 16, '0')) AS unique_id,
             h % 25 = 0 AS has_media,
             '9198' || lpad((h % 250)::text, 8, '0') || '@c.us' AS sender
      FROM (SELECT i, (i * 2654435761) % 1000003 AS h FROM generate_series($7::bigint, $8::bigint) AS i) g
    ) a
  ) b`;
}

/**
 * One organization with three phones and a token; `total` messages of which every
 * (total / bigChatMessages)-th goes to one big group chat and the rest to `otherChats` chats.
 * @returns {{ org, phones, token, bigChat }}
 */
async function seedOrg({ prisma, pg, name, total, bigChatMessages, otherChats, log }) {
  const org = await createOrg(prisma, { name });
  const phones = [];
  for (let k = 0; k < 3; k++) phones.push(await createPhone(prisma, org.id));
  const token = await createToken(prisma, org.id);
  const bigChat = '120363041234567890@g.us';
  const every = Math.max(1, Math.round(total / bigChatMessages));

  await pg.query('SET synchronous_commit = off');
  const batch = 250_000;
  const sql = insertSql();
  for (let first = 1; first <= total; first += batch) {
    const last = Math.min(total, first + batch - 1);
    const t = Date.now();
    await pg.query(sql, [
      org.id,
      phones.map((p) => p.phone_id),
      phones.map((p) => p.org_phone),
      bigChat,
      CORPUS3,
      THUMB,
      first,
      last,
      Math.max(1, otherChats),
      every,
    ]);
    log(`  ${name}: inserted messages ${first}..${last} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  }
  return { org, phones, token, bigChat };
}

async function countOrg(pg, world) {
  const { rows } = await pg.query(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE chat_id = $1)::int AS big, count(DISTINCT chat_id)::int AS chats,
            avg(octet_length(coalesce(body, '')))::int AS avg_body
     FROM messages WHERE org_id = $2`,
    [world.bigChat, world.org.id],
  );
  return rows[0];
}

async function vacuumAnalyze(pg, log) {
  const t = Date.now();
  await pg.query('VACUUM ANALYZE messages');
  await pg.query('ANALYZE');
  const { rows } = await pg.query(
    `SELECT pg_size_pretty(pg_table_size('messages')) AS table_size,
            pg_size_pretty(pg_relation_size('messages_org_chat_recent_idx')) AS page_index_size`,
  );
  log(`  VACUUM ANALYZE (${((Date.now() - t) / 1000).toFixed(1)} s): ${JSON.stringify(rows[0])}`);
  return rows[0];
}

/** The organization's chat rows as ingestion keeps them: one per (phone, chat), its latest message and activity. */
async function deriveChatRows(pg, orgId) {
  await pg.query(
    `INSERT INTO chats (org_id, phone_id, chat_id, chat_type, org_phone, latest_message_id, latest_message_at, activity_at, unread_count, created_at, updated_at)
     SELECT DISTINCT ON (phone_id, chat_id) org_id, phone_id, chat_id, CASE WHEN chat_id LIKE '%@g.us' THEN 'group' ELSE 'user' END,
            org_phone, id, "timestamp", "timestamp", (id % 5)::int, "timestamp", "timestamp"
     FROM messages WHERE org_id = $1 ORDER BY phone_id, chat_id, "timestamp" DESC, id DESC`,
    [orgId],
  );
}

/** 50 participants in each of the organization's group chats (the first an admin), as GET /chats reads them. */
async function addGroupParticipants(pg, orgId) {
  await pg.query(
    `INSERT INTO group_participants (phone_id, chat_id, contact_id, org_id, is_admin)
     SELECT c.phone_id, c.chat_id, '9198' || lpad(g::text, 8, '0') || '@c.us', c.org_id, g = 1
     FROM chats c, generate_series(1, 50) g WHERE c.org_id = $1 AND c.chat_type = 'group'`,
    [orgId],
  );
}

module.exports = { seedOrg, countOrg, vacuumAnalyze, deriveChatRows, addGroupParticipants };
