import { createConnection } from 'node:net';
import { freePort } from '../processes';
import { OwnedProcess, emptyDir, privateDir, removeDir } from './owned-process';

export interface PrivateRedisOptions {
  /** AOF fsync policy: `always` loses no acknowledged write to a kill, `everysec` up to a second's. */
  appendfsync?: 'always' | 'everysec' | 'no';
}

/** PING over a raw connection: +PONG once the server has loaded its data. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    socket.setTimeout(1_000, () => socket.destroy());
    socket.once('data', (data) => {
      resolve(data.toString().startsWith('+PONG'));
      socket.destroy();
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

/**
 * A redis-server of the test's own, on a free port of 127.0.0.1 with its data (AOF, no RDB
 * snapshots) in a temporary directory: restarted with its data, or started empty (as a new pod, or a
 * failover to a replica that missed writes). Never the machine's shared server.
 */
export class PrivateRedis {
  private readonly process = new OwnedProcess('private redis-server');

  private constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly options: PrivateRedisOptions,
  ) {}

  static async start(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), privateDir('mapi-redis'), options);
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.process.running;
  }

  /** Starts the server on its data; `empty`: with none. */
  async start(options: { empty?: boolean } = {}): Promise<void> {
    if (options.empty) emptyDir(this.dataDir);
    this.process.start({
      command: process.env.REDIS_SERVER_BIN ?? 'redis-server',
      args: [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dataDir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        this.options.appendfsync ?? 'always',
        '--protected-mode',
        'no',
        '--daemonize',
        'no',
      ],
    });
    await this.process.waitReady(() => pong(this.port));
  }

  /** SIGTERM: a clean shutdown (the AOF flushed). */
  stop(): Promise<void> {
    return this.process.signal('SIGTERM');
  }

  /** SIGKILL: what was not fsynced (appendfsync) is lost. */
  kill(): Promise<void> {
    return this.process.signal('SIGKILL');
  }

  /** Stopped (or killed) and started again: with its data, or (`empty`) without. */
  async restart(options: { empty?: boolean; kill?: boolean } = {}): Promise<void> {
    await (options.kill ? this.kill() : this.stop());
    await this.start({ empty: options.empty });
  }

  async destroy(): Promise<void> {
    await this.kill();
    removeDir(this.dataDir);
  }
}
