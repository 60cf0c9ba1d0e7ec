'use strict';
/**
 * The bench's own child processes (started here, stopped here, never by name) and CPU accounting
 * read from /proc, so each stage's cost can be given per 1,000 messages whatever else the shared
 * machine is doing.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');

const children = new Set();

/** Starts `node [nodeArgs] script`, appending its output to logFile. */
function startNode(name, script, { env, logFile, nodeArgs = [], cwd }) {
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, script], { cwd, env, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  const proc = { name, child, logFile, exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal))) };
  children.add(proc);
  proc.exited.then(() => children.delete(proc));
  return proc;
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Polls url until it answers 200; fails early, with the log's tail, when the process exits. */
async function waitReady(proc, url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) throw new Error(`${proc.name} exited:\n${tail(proc.logFile)}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${proc.name} not ready at ${url} after ${timeoutMs} ms:\n${tail(proc.logFile)}`);
}

/** SIGTERM (a graceful stop also lets --cpu-prof write its file), SIGKILL after graceMs. */
async function stopProc(proc, graceMs = 15_000) {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

const stopAll = () => Promise.all([...children].map((p) => stopProc(p)));

process.on('exit', () => {
  for (const p of children) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
});

const CLK_TCK = 100;

/** utime+stime of a process in seconds, or null when it is gone. */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return null;
  }
}

function pidsByComm(comm) {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) out.push(Number(entry));
    } catch {
      /* gone */
    }
  }
  return out;
}

function machineTicks() {
  const v = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3] + (v[4] || 0);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * CPU seconds per group of processes between start() and stop(). groups: { name: async () => pid[] },
 * re-read at stop so that processes appearing meanwhile (new pool connections) are counted too.
 */
function cpuMeter(groups) {
  let before;
  let self;
  let machine;
  return {
    async start() {
      before = {};
      for (const [name, fn] of Object.entries(groups)) {
        before[name] = new Map();
        for (const pid of await fn()) before[name].set(pid, cpuSeconds(pid) ?? 0);
      }
      self = process.cpuUsage();
      machine = machineTicks();
    },
    async stop() {
      const out = {};
      for (const [name, fn] of Object.entries(groups)) {
        let sum = 0;
        const pids = new Set([...before[name].keys(), ...(await fn())]);
        for (const pid of pids) {
          const now = cpuSeconds(pid);
          if (now !== null) sum += now - (before[name].get(pid) ?? 0);
        }
        out[name] = sum;
      }
      const u = process.cpuUsage(self);
      out['bench (load generator)'] = (u.user + u.system) / 1e6;
      const m = machineTicks();
      out['machine busy %'] = (100 * (m.busy - machine.busy)) / Math.max(1, m.total - machine.total);
      return out;
    },
  };
}

function loadAverage() {
  return fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
}

module.exports = { startNode, waitReady, stopProc, stopAll, cpuSeconds, pidsByComm, cpuMeter, loadAverage, tail };
