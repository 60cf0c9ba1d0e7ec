'use strict';
/**
 * Readability through the public API: GET /v1/chats/{chat_id}/messages over the gateway. A probe
 * takes the newest message inserted so far, polls the chat's newest page until that message is
 * in it, and records the lag; then the next. Few requests (well under the token's rate limit), so
 * it checks the SQL-measured lag without adding real load. `spotCheck` compares whole chats.
 */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function getMessages(baseUrl, token, phoneId, chatId, limit) {
  const res = await fetch(`${baseUrl}/v1/chats/${encodeURIComponent(chatId)}/messages?limit=${limit}`, {
    headers: { Authorization: `Bearer ${token}`, 'x-phone': phoneId },
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.json().catch(() => null);
  return { status: res.status, body };
}

function httpProbe({ baseUrl, token, latest, pollMs = 25, timeoutMs = 30_000 }) {
  const lags = [];
  const slowest = []; // the slowest GETs: [ms, when (ms after the probe started)]
  const t0 = Date.now();
  let errors = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const target = latest();
      if (!target) {
        await sleep(50);
        continue;
      }
      const deadline = target.at.getTime() + timeoutMs;
      while (running && Date.now() < deadline) {
        try {
          const g0 = Date.now();
          const r = await getMessages(baseUrl, token, target.phone_id, target.chat_id, 20);
          slowest.push([Date.now() - g0, g0 - t0]);
          slowest.sort((a, b) => b[0] - a[0]).splice(5);
          if (r.status !== 200) errors++;
          else if (r.body.messages.some((m) => m.unique_id === target.unique_id)) {
            lags.push(Date.now() - target.at.getTime());
            break;
          }
        } catch {
          errors++;
        }
        await sleep(pollMs);
      }
      await sleep(100);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { lags, errors, slowest };
    },
  };
}

/** For a few chats: the API's page (limit 2000) must hold exactly what the table holds. */
async function spotCheck({ baseUrl, token, pool, phone, chats }) {
  const out = [];
  for (const chatId of chats) {
    const api = await getMessages(baseUrl, token, phone.phone_id, chatId, 2000);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM messages WHERE phone_id = $1 AND chat_id = $2', [
      phone.phone_id,
      chatId,
    ]);
    out.push({ chat_id: chatId, status: api.status, api: api.body?.messages?.length ?? null, sql: rows[0].n });
  }
  return { ok: out.every((c) => c.status === 200 && c.api === c.sql && c.sql > 0), chats: out };
}

module.exports = { httpProbe, spotCheck, getMessages };
