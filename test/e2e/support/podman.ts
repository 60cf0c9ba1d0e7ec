import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');

/** The image tag of this checkout: test runs of two checkouts on one machine do not take each other's image. */
export const checkoutImage = () => `localhost/mapi:e2e-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A command run under the project's podman configuration (scripts/podman-env.sh), output collected. */
export function run(command: string, args: string[], options: { timeoutMs?: number; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', '. scripts/podman-env.sh && exec "$@"', 'run', command, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `podman …`, failing with its output when it fails; its stdout trimmed. */
export async function podman(args: string[], timeoutMs?: number): Promise<string> {
  const r = await run('podman', args, { timeoutMs });
  if (r.code !== 0) throw new Error(`podman ${args.join(' ')} failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout.trim();
}

/**
 * Whether containers can be built and run here: installs podman and friends when missing
 * (scripts/ensure-podman.sh, which needs apt-get and root or sudo) and asks podman. The reason when not.
 */
export function podmanUsable(): { ok: true } | { ok: false; reason: string } {
  const r = spawnSync('bash', ['scripts/ensure-podman.sh'], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  if (r.status === 0) return { ok: true };
  return { ok: false, reason: `${r.stderr || r.stdout || r.error?.message || 'scripts/ensure-podman.sh failed'}`.trim() };
}
