import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { freePort } from '../processes';
import { OwnedProcess, privateDir, removeDir } from './owned-process';
import { writeServerTls, type ServerTls } from './server-tls';

export interface PrivateMosquittoOptions {
  /** Users and passwords (a password file; anonymous clients refused). Without: anonymous allowed. */
  users?: Record<string, string>;
  /** A TLS listener (mqtts://) that requires a client certificate from `tls.ca` (require_certificate true). */
  tls?: ServerTls;
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A Mosquitto of the test's own (never the machine's shared one, 127.0.0.1:1883), on a free port of
 * 127.0.0.1 with persistence on in a temporary directory: stopped (SIGTERM: it writes its sessions
 * and queued messages) and started again on them, as a broker restart. With `tls`, its listener speaks
 * TLS only (mqtts://) and requires a client certificate.
 */
export class PrivateMosquitto {
  private readonly process = new OwnedProcess('private mosquitto');

  private constructor(
    readonly port: number,
    readonly dir: string,
    readonly tls = false,
  ) {}

  static async start(options: PrivateMosquittoOptions = {}): Promise<PrivateMosquitto> {
    const dir = privateDir('mapi-mosquitto');
    const mosquitto = new PrivateMosquitto(await freePort(), dir, !!options.tls);
    const lines = [`listener ${mosquitto.port} 127.0.0.1`];
    if (options.tls) {
      const files = writeServerTls(dir, options.tls);
      lines.push(`cafile ${files.ca}`, `certfile ${files.cert}`, `keyfile ${files.key}`, 'require_certificate true');
    }
    lines.push('persistence true', `persistence_location ${dir}/`, 'autosave_interval 1');
    if (options.users) {
      const file = join(dir, 'passwords');
      for (const [user, password] of Object.entries(options.users))
        execFileSync('mosquitto_passwd', ['-b', ...(Object.keys(options.users)[0] === user ? ['-c'] : []), file, user, password]);
      chmodSync(file, 0o644);
      lines.push('allow_anonymous false', `password_file ${file}`);
    } else {
      lines.push('allow_anonymous true');
    }
    writeFileSync(join(dir, 'mosquitto.conf'), lines.join('\n') + '\n');
    // started as root, mosquitto runs as its own user, which must read the files and write the store
    if (process.getuid?.() === 0) {
      const uid = Number(execFileSync('id', ['-u', 'mosquitto']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'mosquitto']).toString().trim());
      execFileSync('chown', ['-R', `${uid}:${gid}`, dir]);
    }
    try {
      await mosquitto.start();
    } catch (err) {
      removeDir(dir);
      throw err;
    }
    return mosquitto;
  }

  get url(): string {
    return `${this.tls ? 'mqtts' : 'mqtt'}://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.process.running;
  }

  async start(): Promise<void> {
    this.process.start({ command: process.env.MOSQUITTO_BIN ?? 'mosquitto', args: ['-c', join(this.dir, 'mosquitto.conf')] });
    await this.process.waitReady(() => listening(this.port), 15_000);
  }

  /** SIGTERM: a clean shutdown (the store is written). */
  stop(): Promise<void> {
    return this.process.signal('SIGTERM');
  }

  /** SIGSTOP: the broker hangs (its connections stay open, nothing is answered) until killed. */
  freeze(): void {
    this.process.send('SIGSTOP');
  }

  /** SIGKILL: what it had not written to its store is lost. */
  kill(): Promise<void> {
    return this.process.signal('SIGKILL');
  }

  /** Stopped and started again on its store. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async destroy(): Promise<void> {
    await this.kill();
    removeDir(this.dir);
  }
}
