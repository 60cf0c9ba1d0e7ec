import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Stack } from './stack';

export interface CliRun {
  code: number | null;
  out: string;
  err: string;
}

/** `npm run admin -- import:hosted …` of stack B (its database, NATS and namespace), as an operator runs it. */
export function importCli(target: Stack, args: string[], onStderr?: (line: string) => void): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(__dirname, '..', '..', '..', 'apps', 'admin-cli', 'dist', 'main.js'), 'import:hosted', ...args],
      {
        env: { ...process.env, DATABASE_URL: target.env.DATABASE_URL, NATS_URL: target.env.NATS_URL, NAMESPACE: target.env.NAMESPACE },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d: Buffer) => {
      err += d;
      if (onStderr) for (const line of d.toString('utf8').split('\n')) if (line.trim()) onStderr(line);
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out, err }));
  });
}
