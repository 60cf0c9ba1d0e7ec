'use strict';
/** Shared by the queue benches: seeding a phone's send queue with the built queue-feature code, percentiles, timers. */
const { randomUUID } = require('node:crypto');

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

/** Adds n unsent jobs to the phone's queue (batches of 5,000), under `broadcast` when given; returns their ids. */
async function seedJobs(queues, orgId, phone, n, broadcast = null) {
  const B = 5_000;
  const ids = [];
  for (let i = 0; i < n; i += B) {
    const jobs = Array.from({ length: Math.min(B, n - i) }, () => ({
      id: randomUUID(),
      chat_id: '4915112345678@c.us',
      content: { text: 'bench' },
    }));
    await queues.add(orgId, phone, jobs, broadcast);
    ids.push(...jobs.map((j) => j.id));
  }
  return ids;
}

module.exports = { pct, ms, seedJobs };
