'use strict';
/**
 * App replicas for the benches: started from a build's dist (this checkout's, or another built
 * checkout's for a same-run before/after), each with its own health port, ready when /health/ready
 * answers 200; stopped with SIGTERM, killed with SIGKILL. Log lines are kept (the last 200) for errors.
 */
const path = require('node:path');
const { spawn } = require('node:child_process');
const { freePort } = require('@mapi/testing');

const ROOT = path.join(__dirname, '..', '..');

/** Starts `app` of the checkout `root` (default: this one) with `env`; resolves once it is ready. */
async function startReplica(app, env, { root = ROOT, readyMs = 60_000 } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'apps', app, 'dist', 'main.js')], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, HEALTH_PORT: String(port), HEALTH_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = [];
  const keep = (chunk) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - 200));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (signal = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${app} (${root}) exited (${child.exitCode}):\n${lines.join('\n')}`);
    if (Date.now() > deadline) {
      await stop('SIGKILL');
      throw new Error(`${app} (${root}) not ready after ${readyMs} ms:\n${lines.join('\n')}`);
    }
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { app, root, pid: child.pid, lines, stop, kill: () => stop('SIGKILL') };
}

module.exports = { startReplica, ROOT };
