'use strict';
/** Timing helpers of the knowledge-base bench: percentiles, timed loops, a closed-loop HTTP load. */
const http = require('node:http');
const os = require('node:os');

const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
/** Nearest-rank percentile of an ascending array. */
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];

function summary(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const avg = s.reduce((a, b) => a + b, 0) / Math.max(1, s.length);
  return {
    n: s.length,
    avg_ms: round(avg),
    p50_ms: round(pct(s, 50)),
    p95_ms: round(pct(s, 95)),
    p99_ms: round(pct(s, 99)),
    max_ms: round(s[s.length - 1] ?? 0),
  };
}

const load = () => os.loadavg().map((x) => round(x));

/** Runs fn(i) n times in sequence; answers the per-call milliseconds. */
async function timed(n, fn) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return ms;
}

/**
 * Closed-loop load: `connections` keep-alive connections, each sending its next request as soon as
 * the previous answer is read, for `seconds`. Every latency is kept (exact percentiles, p95 included).
 * `check(status, body)` is called on every answer; a false result counts as an error.
 */
async function httpLoad({ port, path, headers, bodies, connections, seconds, check }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const ms = [];
  let errors = 0;
  let sent = 0;
  const until = Date.now() + seconds * 1000;
  const one = (body) =>
    new Promise((resolve) => {
      const t = process.hrtime.bigint();
      const req = http.request(
        { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
        (res) => {
          const parts = [];
          res.on('data', (c) => parts.push(c));
          res.on('end', () => {
            ms.push(Number(process.hrtime.bigint() - t) / 1e6);
            if (!check(res.statusCode, Buffer.concat(parts).toString('utf8'))) errors++;
            resolve();
          });
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const started = Date.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) await one(bodies[sent++ % bodies.length]);
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  return { connections, seconds: round(elapsed), requests: ms.length, req_per_s: Math.round(ms.length / elapsed), errors, ...summary(ms) };
}

module.exports = { summary, timed, httpLoad, load, round, pct };
