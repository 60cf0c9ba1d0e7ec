import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Children still running when the test process exits are killed: a private server never outlives its test. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface ProcessSpec {
  command: string;
  args: string[];
  /** Run as this user (uid, gid): Postgres refuses to run as root. */
  user?: { uid: number; gid: number };
  /** Added to this process's environment. */
  env?: Record<string, string>;
}

/**
 * One server process a test owns: started, signalled and awaited by its handle (never by name), its
 * output kept for when a start fails.
 */
export class OwnedProcess {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  readonly lines: string[] = [];

  constructor(private readonly name: string) {}

  get running(): boolean {
    return this.child !== undefined;
  }

  start(spec: ProcessSpec): void {
    if (this.child) throw new Error(`${this.name} is already running`);
    const child = spawn(spec.command, spec.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(spec.user ?? {}),
      ...(spec.env ? { env: { ...process.env, ...spec.env } } : {}),
    });
    const collect = (chunk: Buffer) => {
      this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (this.lines.length > 2_000) this.lines.splice(0, this.lines.length - 2_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    live.add(child);
    this.child = child;
    this.exited = new Promise((resolve) =>
      child.once('exit', () => {
        live.delete(child);
        if (this.child === child) this.child = undefined;
        resolve();
      }),
    );
  }

  /** Sends `signal` and returns (e.g. SIGSTOP: the process hangs, its connections stay open). */
  send(signal: NodeJS.Signals): void {
    this.child?.kill(signal);
  }

  /** Sends `signal` and waits for the process to exit (SIGKILL after `timeoutMs`). */
  async signal(signal: NodeJS.Signals, timeoutMs = 15_000): Promise<void> {
    const { child, exited } = this;
    if (!child || !exited) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  }

  /** Fails with the process's last output when it exits first or `ready` does not hold within `timeoutMs`. */
  async waitReady(ready: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (Date.now() < end) {
      if (!this.child) throw new Error(`${this.name} exited while starting:\n${this.lines.slice(-20).join('\n')}`);
      if (await ready().catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${this.name} not ready after ${timeoutMs} ms:\n${this.lines.slice(-20).join('\n')}`);
  }
}

/** A private temporary directory, owned by `user` when given. */
export function privateDir(prefix: string, user?: { uid: number; gid: number }): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

/** Removes what `dir` holds, keeping the directory (and its owner). */
export function emptyDir(dir: string): void {
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
}

export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });
