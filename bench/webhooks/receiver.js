// A local webhook receiver for the webhooks tests and benchmark (loopback only). Records every request
// (path, headers, body, arrival time); a path's answer can be scripted with `script(path, fn)`, and
// delayed (`delayMs` in the answer). `open` counts requests not yet answered; `maxOpen` its peak.
'use strict';
const http = require('node:http');

/** @returns {Promise<{url: string, port: number, requests: any[], script: Function, close: Function, onRequest: Function|null}>} */
function startReceiver() {
  const requests = [];
  const scripts = new Map();
  const state = { onRequest: null, open: 0, maxOpen: 0 };
  const server = http.createServer((req, res) => {
    state.open++;
    state.maxOpen = Math.max(state.maxOpen, state.open);
    let done = false;
    const finished = () => {
      if (!done) state.open--;
      done = true;
    };
    res.on('close', finished);
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry = { path: req.url, headers: req.headers, body, at: Date.now() };
      requests.push(entry);
      if (state.onRequest) state.onRequest(entry);
      const fn = scripts.get(req.url);
      const answer = fn ? fn(entry, requests.filter((r) => r.path === req.url).length) : { status: 200 };
      const reply = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.headers || {});
        res.end(answer.body || '');
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  server.keepAliveTimeout = 30_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = server.address().port;
      resolve({
        port,
        url: `http://127.0.0.1:${port}`,
        requests,
        state,
        script: (path, fn) => scripts.set(path, fn),
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(r);
          }),
      });
    });
  });
}

module.exports = { startReceiver };
