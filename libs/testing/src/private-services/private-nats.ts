import { connect } from 'nats';
import { freePort } from '../processes';
import { OwnedProcess, emptyDir, privateDir, removeDir } from './owned-process';
import { writeServerTls, type ServerTls } from './server-tls';

/**
 * A nats-server of the test's own, JetStream on a temporary store directory, on a free port of
 * 127.0.0.1: killed and started on the same store, or started on an empty one (as a server whose
 * volume was lost). Never the machine's shared server. With `tls`, clients must speak TLS (tls://) and
 * present a certificate from `tls.ca` (`--tlsverify`); `clientTls` is what its own readiness check uses.
 */
export class PrivateNats {
  private readonly process = new OwnedProcess('private nats-server');
  private tlsArgs: string[] = [];
  private tlsDir?: string;

  private constructor(
    readonly port: number,
    readonly storeDir: string,
    /** With a TLS listener: a client certificate and key it accepts, and the CA (PEM). */
    readonly clientTls?: { ca: string; cert: string; key: string },
  ) {}

  static async start(options: { tls?: ServerTls; clientTls?: { cert: string; key: string } } = {}): Promise<PrivateNats> {
    if (options.tls && !options.clientTls) throw new Error('a TLS nats-server needs clientTls (its readiness check presents it)');
    const clientTls = options.tls && options.clientTls ? { ca: options.tls.ca, ...options.clientTls } : undefined;
    const nats = new PrivateNats(await freePort(), privateDir('mapi-nats'), clientTls);
    if (options.tls) {
      nats.tlsDir = privateDir('mapi-nats-tls');
      const files = writeServerTls(nats.tlsDir, options.tls);
      nats.tlsArgs = ['--tls', '--tlscert', files.cert, '--tlskey', files.key, '--tlscacert', files.ca, '--tlsverify'];
    }
    try {
      await nats.start();
    } catch (err) {
      await nats.destroy();
      throw err;
    }
    return nats;
  }

  get url(): string {
    return `${this.clientTls ? 'tls' : 'nats'}://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.process.running;
  }

  /** Starts the server; `empty`: on an empty store (every stream and consumer gone). */
  async start(options: { empty?: boolean } = {}): Promise<void> {
    if (options.empty) emptyDir(this.storeDir);
    this.process.start({
      command: process.env.NATS_SERVER_BIN ?? 'nats-server',
      args: ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir, ...this.tlsArgs],
    });
    await this.process.waitReady(async () => {
      const nc = await connect({
        servers: `127.0.0.1:${this.port}`,
        reconnect: false,
        timeout: 1_000,
        ...(this.clientTls ? { tls: this.clientTls } : {}),
      });
      try {
        await (await nc.jetstreamManager()).getAccountInfo();
        return true;
      } finally {
        await nc.close();
      }
    });
  }

  /** SIGTERM: a clean shutdown. */
  stop(): Promise<void> {
    return this.process.signal('SIGTERM');
  }

  /** SIGKILL: what JetStream had not written to its store is lost with the process. */
  kill(): Promise<void> {
    return this.process.signal('SIGKILL');
  }

  /** Killed and started again: on the same store, or (`empty`) on an empty one. */
  async restart(options: { empty?: boolean; kill?: boolean } = {}): Promise<void> {
    await (options.kill === false ? this.stop() : this.kill());
    await this.start({ empty: options.empty });
  }

  async destroy(): Promise<void> {
    await this.kill();
    removeDir(this.storeDir);
    if (this.tlsDir) removeDir(this.tlsDir);
  }
}
