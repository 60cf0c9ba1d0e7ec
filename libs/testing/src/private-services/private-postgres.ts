import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../processes';
import { OwnedProcess, privateDir, removeDir } from './owned-process';

/** How a Postgres stops: `fast` (SIGINT: sessions ended, a clean checkpoint) or `immediate` (SIGQUIT: a crash, recovered from the WAL at the next start). */
export type PostgresStop = 'fast' | 'immediate';

/** The installed server's bin directory (Debian's layout, the newest version; PG_BIN overrides). */
function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? execFileSync('ls', [root], { encoding: 'utf8' })
        .split('\n')
        .filter((v) => /^\d+$/.test(v))
    : [];
  if (!versions.length) throw new Error('no PostgreSQL server under /usr/lib/postgresql (set PG_BIN)');
  return join(root, versions.sort((a, b) => Number(b) - Number(a))[0], 'bin');
}

/** Postgres refuses root: as root, the cluster is the `postgres` user's. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A Postgres cluster of the test's own: `initdb` in a temporary directory, the server on a free port
 * of 127.0.0.1 with its socket in that directory (trust authentication, user `postgres`). It uses
 * the installed server, so pgvector is there as the project installs it (scripts/ensure-services.sh).
 * Never the machine's shared cluster.
 */
export class PrivatePostgres {
  private readonly process = new OwnedProcess('private postgres');

  private constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly bin: string,
    private readonly user: { uid: number; gid: number } | undefined,
  ) {}

  static async start(): Promise<PrivatePostgres> {
    const bin = postgresBin();
    const user = serverUser();
    const dataDir = privateDir('mapi-pg', user);
    execFileSync(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'], {
      stdio: 'pipe',
      ...(user ?? {}),
    });
    const pg = new PrivatePostgres(await freePort(), dataDir, bin, user);
    await pg.start();
    return pg;
  }

  /** The URL of `database` on this cluster. */
  url(database = 'postgres'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  get running(): boolean {
    return this.process.running;
  }

  /** Starts the server on its data directory (after a crash, it recovers from the WAL first). */
  async start(): Promise<void> {
    this.process.start({
      command: join(this.bin, 'postgres'),
      args: [
        '-D',
        this.dataDir,
        '-p',
        String(this.port),
        '-k',
        this.dataDir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'shared_buffers=32MB',
        '-c',
        'max_connections=200',
      ],
      user: this.user,
    });
    await this.process.waitReady(async () => {
      const client = new Client({ connectionString: this.url(), connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    });
  }

  async stop(mode: PostgresStop = 'fast'): Promise<void> {
    await this.process.signal(mode === 'fast' ? 'SIGINT' : 'SIGQUIT');
  }

  async restart(mode: PostgresStop = 'fast'): Promise<void> {
    await this.stop(mode);
    await this.start();
  }

  /** Stops the server (immediately) and removes its data directory. */
  async destroy(): Promise<void> {
    await this.stop('immediate');
    removeDir(this.dataDir);
  }
}
