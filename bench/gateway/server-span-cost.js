#!/usr/bin/env node
'use strict';
/**
 * What the api-gateway's server span costs per request: the same small Fastify server (server-span-server.js)
 * with the span made by @opentelemetry/instrumentation-http (SPAN_MODE=instrumentation, the base commit's
 * way) and by traceIncomingRequests (SPAN_MODE=own), no exporter (as the bench runs the gateway). Both
 * servers run at once; autocannon loads one, then the other, BENCH_ROUNDS times (order alternating), at
 * BENCH_CONNECTIONS (10) for BENCH_DURATION (5 s); CPU per request of the server process from /proc.
 * Usage (built tree): node bench/gateway/server-span-cost.js
 */
const path = require('node:path');
const { fork } = require('node:child_process');
const autocannon = require('autocannon');
const { cpuSeconds, waitIdle } = require('../messages/procs');
const { freePort } = require('@mapi/testing');

const num = (name, def) => (process.env[name] ? Number(process.env[name]) : def);
const ROUNDS = num('BENCH_ROUNDS', 5);
const DURATION = num('BENCH_DURATION', 5);
const CONNECTIONS = num('BENCH_CONNECTIONS', 10);

async function start(mode) {
  const port = await freePort();
  const child = fork(path.join(__dirname, 'server-span-server.js'), [], {
    env: { ...process.env, SPAN_MODE: mode, PORT: String(port), OTEL_EXPORTER_OTLP_ENDPOINT: '' },
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${mode} exited ${code}`)));
  });
  return { mode, port, child };
}

const load = (port) =>
  new Promise((resolve, reject) =>
    autocannon(
      {
        url: `http://127.0.0.1:${port}/v1/things/42?x=1`,
        connections: CONNECTIONS,
        duration: DURATION,
        headers: { authorization: 'Bearer x' },
      },
      (err, r) => (err ? reject(err) : resolve(r)),
    ),
  );

async function main() {
  const servers = [await start('instrumentation'), await start('own')];
  const out = { instrumentation: [], own: [] };
  try {
    for (const s of servers) await load(s.port); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 ? [...servers].reverse() : servers) {
        await waitIdle([s.child.pid]);
        const c0 = cpuSeconds(s.child.pid);
        const r = await load(s.port);
        const cpuUs = ((cpuSeconds(s.child.pid) - c0) * 1e6) / r.requests.total;
        out[s.mode].push({ rps: r.requests.average, cpu_us_per_req: +cpuUs.toFixed(1), non2xx: r.non2xx });
        console.log(
          `round ${round + 1} ${s.mode.padEnd(15)} ${r.requests.average.toFixed(0)} req/s, ${cpuUs.toFixed(1)} µs CPU/request, p99 ${r.latency.p99} ms`,
        );
      }
    }
  } finally {
    for (const s of servers) s.child.kill();
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const a = median(out.instrumentation.map((x) => x.cpu_us_per_req));
  const b = median(out.own.map((x) => x.cpu_us_per_req));
  console.log(
    `median CPU per request: instrumentation ${a} µs, own span ${b} µs (−${(a - b).toFixed(1)} µs, ${((100 * (a - b)) / a).toFixed(0)} %)`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
