#!/usr/bin/env node
'use strict';
/**
 * CPU of one access-log line (the gateway's `request` line) through createLogger (full redaction, trace
 * mixin) and through a child logger without redact paths, as route-registrar.ts writes it; then prints
 * one line of each so the output can be compared. Usage (built tree): node bench/gateway/log-line-cost.js
 */
const path = require('node:path');
const fs = require('node:fs');
const os = require('node:os');
const pino = require('pino');
const { createLogger } = require('@mapi/platform');
const file = path.join(os.tmpdir(), `log-line-cost-${process.pid}.log`);
const dest = pino.destination({ dest: file, sync: true });
const a = createLogger('api-gateway', 'info', dest);
const c = a.child({}, { redact: { paths: [] } });
const obj = () => ({
  method: 'GET',
  url: '/v1/chats/120363041234567890%40g.us/messages',
  status: 200,
  ms: 2,
  org_id: '19ef173d-c7d7-4bd1-809d-6185e36428a5',
});
const N = 20000;
for (let r = 0; r < 4; r++)
  for (const [name, l] of [
    ['createLogger', a],
    ['child without redact paths', c],
  ]) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) l.info(obj(), 'request');
    const u = process.cpuUsage(c0);
    console.log(name.padEnd(30), 'CPU us/line', ((u.user + u.system) / N).toFixed(2));
  }
a.info(obj(), 'request');
c.info(obj(), 'request');
const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
console.log(
  lines
    .slice(-2)
    .map((l) => l.replace(/"time":"[^"]*",/, ''))
    .join('\n'),
);
fs.unlinkSync(file);
