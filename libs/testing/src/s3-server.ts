import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real S3-compatible HTTP server in its own process: s3rver (npm devDependency, pure JavaScript,
 * files on disk). It checks the access key id of Signature V4 requests but does not recompute the
 * signature itself. There is no MinIO binary that
 * installs from the npm or Debian registries, and no Docker engine here; see docs/services/media.md
 * for what this does and does not prove about MinIO.
 */
export interface S3TestServer {
  endpoint: string;
  /** Created at startup. */
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** The server's last 500 log lines (requests, errors) for failure messages. */
  lines: string[];
  stop(): Promise<void>;
}

/** s3rver's single account: another access key id gets InvalidAccessKeyId. */
const ACCOUNT = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3Server(bucket = 'mapi-media-test', timeoutMs = 20_000): Promise<S3TestServer> {
  const dir = await mkdtemp(join(tmpdir(), 'mapi-s3rver-'));
  const bin = require.resolve('s3rver/bin/s3rver.js');
  // --no-vhost-buckets: path-style only, as the backend is configured (MEDIA_S3_FORCE_PATH_STYLE).
  // --openssl-legacy-provider: s3rver makes list continuation tokens with DES, which OpenSSL 3 only has there.
  const child: ChildProcess = spawn(
    process.execPath,
    ['--openssl-legacy-provider', bin, '-d', dir, '-a', '127.0.0.1', '-p', '0', '--no-vhost-buckets', '--configure-bucket', bucket],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`s3rver did not start within ${timeoutMs} ms:\n${lines.join('\n')}`)), timeoutMs);
      const collect = (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          lines.push(line);
          if (lines.length > 500) lines.shift();
          const m = /S3rver listening on [^:]+:(\d+)/.exec(line);
          if (m) {
            clearTimeout(timer);
            resolve(Number(m[1]));
          }
        }
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`s3rver exited (${code}):\n${lines.join('\n')}`));
      });
    });
    return { endpoint: `http://127.0.0.1:${port}`, bucket, region: 'us-east-1', ...ACCOUNT, lines, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
