'use strict';
/** Child processes of the bench (started here, killed here) and CPU accounting from /proc. */
const { spawn } = require('node:child_process');
const fs = require('node:fs');

const children = new Set();
const started = [];

/** Starts `node [nodeArgs] script` with its stdout/stderr appended to logFile. */
function startNode(name, script, { env, logFile, nodeArgs = [], cwd }) {
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [...nodeArgs, script], { cwd, env, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  const proc = {
    name,
    child,
    logFile,
    startedAt: Date.now(),
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal))),
  };
  children.add(proc);
  started.push(proc);
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

/** Polls url until it answers 200; fails early with the log tail when the process exits. */
async function waitReady(proc, url, { timeoutMs = 120_000, headers = {} } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
      throw new Error(`${proc.name} exited (${proc.child.exitCode ?? proc.child.signalCode}):\n${tail(proc.logFile)}`);
    }
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${proc.name} not ready at ${url} after ${timeoutMs} ms:\n${tail(proc.logFile)}`);
}

/** SIGTERM (graceful: lets --cpu-prof write its file), then SIGKILL after graceMs. */
async function stopProc(proc, graceMs = 10_000) {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await proc.exited;
  clearTimeout(timer);
}

async function stopAll() {
  await Promise.all([...children].map((p) => stopProc(p)));
}

/** Last resort on exit: nothing of ours may outlive the bench. */
process.on('exit', () => {
  for (const p of children) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
});

// ---- CPU accounting -------------------------------------------------------------------------

const CLK_TCK = 100; // getconf CLK_TCK on Linux x86_64/arm64

/** utime+stime of a process in seconds, or null when it is gone. */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // fields 14 and 15 of stat(5)
  } catch {
    return null;
  }
}

/** pids whose command name (comm) is `comm`, e.g. nats-server, redis-server. */
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

/** Busy and total jiffies of the whole machine (all cores). */
function machineTicks() {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = v[3] + (v[4] || 0);
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * Measures the CPU seconds each group of processes spends between start() and stop().
 * groups: { name: () => pid[] } (re-evaluated at start), plus the load generator (this process).
 */
function cpuMeter(groups) {
  let before;
  let selfBefore;
  let machineBefore;
  let resolved;
  return {
    async start() {
      resolved = {};
      before = {};
      for (const [name, pidsFn] of Object.entries(groups)) {
        resolved[name] = await pidsFn();
        before[name] = resolved[name].map((pid) => cpuSeconds(pid));
      }
      selfBefore = process.cpuUsage();
      machineBefore = machineTicks();
    },
    async stop() {
      const out = {};
      for (const [name, pids] of Object.entries(resolved)) {
        let sum = 0;
        pids.forEach((pid, i) => {
          const now = cpuSeconds(pid);
          if (now !== null && before[name][i] !== null) sum += now - before[name][i];
        });
        // Processes that appeared during the window (e.g. a new pool connection's backend).
        for (const pid of await groups[name]()) if (!pids.includes(pid)) sum += cpuSeconds(pid) ?? 0;
        out[name] = sum;
      }
      const self = process.cpuUsage(selfBefore);
      out['load generator'] = (self.user + self.system) / 1e6;
      const m = machineTicks();
      out['machine busy %'] = (100 * (m.busy - machineBefore.busy)) / Math.max(1, m.total - machineBefore.total);
      return out;
    },
  };
}

/**
 * Waits until the given processes are idle (together under `busyFraction` of one core over a
 * `windowMs` window, twice in a row): requests abandoned by the load generator at the end of a
 * run are still being served, and must not eat into the next measurement.
 */
async function waitIdle(pids, { windowMs = 250, busyFraction = 0.05, timeoutMs = 60_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  const total = () => pids.reduce((a, pid) => a + (cpuSeconds(pid) ?? 0), 0);
  let quiet = 0;
  let last = total();
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = total();
    quiet = now - last <= (busyFraction * windowMs) / 1000 ? quiet + 1 : 0;
    last = now;
    if (quiet >= 2) return true;
  }
  return false;
}

/** Every process started so far (also those that have exited). */
const startedProcs = () => [...started];

module.exports = { startedProcs, startNode, waitReady, stopProc, stopAll, cpuMeter, cpuSeconds, pidsByComm, waitIdle, tail };
