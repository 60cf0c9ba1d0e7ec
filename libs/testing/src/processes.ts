import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** A free TCP port on the loopback interface. */
/**
 * Ports handed to processes are taken below the kernel's ephemeral range (32768+), from a block of
 * this Jest worker's own: a port picked with listen(0) could be handed out again, to another worker or
 * as the source port of an outgoing connection, before the process it was meant for bound it (seen as
 * EADDRINUSE, or as another stack's server answering this stack's requests).
 */
const PORT_BLOCK = 2_000;
const PORT_BASE = 12_000 + (Number(process.env.JEST_WORKER_ID ?? 0) % 10) * PORT_BLOCK;
let nextPort = PORT_BASE + Math.floor(Math.random() * PORT_BLOCK);

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A port of 127.0.0.1 nobody listens on, not handed out before by this process. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORT_BLOCK; tries++) {
    const port = nextPort;
    nextPort = PORT_BASE + ((nextPort - PORT_BASE + 1) % PORT_BLOCK);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${PORT_BASE}..${PORT_BASE + PORT_BLOCK - 1}`);
}

/** An app started from its built output (apps/<name>/dist/main.js), its log lines collected. */
export class AppProcess {
  readonly lines: string[] = [];
  private exited?: Promise<number | null>;

  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
  ) {
    const collect = (chunk: Buffer) => this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static start(app: string, env: Record<string, string>): AppProcess {
    const child = spawn(process.execPath, [join(ROOT, 'apps', app, 'dist', 'main.js')], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new AppProcess(app, child);
  }

  /**
   * Waits until `url` answers 200 (readiness), failing with the app's log when it does not. 60 s: with two
   * Jest workers each starting a stack of up to nine processes on two cores, 30 s was sometimes too short.
   */
  async waitReady(url: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited (${this.child.exitCode}):\n${this.lines.join('\n')}`);
      try {
        const res = await fetch(url);
        if (res.status === 200) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`${this.name} not ready at ${url} after ${timeoutMs} ms:\n${this.lines.join('\n')}`);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited!;
  }

  kill(): Promise<number | null> {
    return this.stop('SIGKILL');
  }
}
