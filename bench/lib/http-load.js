'use strict';
/**
 * What the HTTP benches share: an autocannon run that a bench's abort handler can stop, and the
 * bytes one GET puts on the wire (fetch would decode a compressed body and hide them).
 */
const http = require('node:http');
const autocannon = require('autocannon');

/** A `cannon(opts)` whose run in progress `stop()` ends (for guardBench's onAbort). */
function loadRunner(timeoutS = 30) {
  let active;
  const cannon = (opts) =>
    new Promise((resolve, reject) => {
      active = autocannon({ ...opts, timeout: timeoutS }, (err, r) => ((active = undefined), err ? reject(err) : resolve(r)));
    });
  return { cannon, stop: () => active?.stop() };
}

/** One GET: status, the body as sent, its length and the Content-Encoding the server chose. */
const wireBytes = (url, headers) =>
  new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const parts = [];
        res.on('data', (c) => parts.push(c));
        res.on('end', () => {
          const body = Buffer.concat(parts);
          resolve({ status: res.statusCode, bytes: body.length, body, encoding: res.headers['content-encoding'] ?? 'identity' });
        });
      })
      .on('error', reject);
  });

module.exports = { loadRunner, wireBytes };
