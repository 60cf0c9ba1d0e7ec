import { connect } from 'nats';
import { freePort } from '../processes';
import { OwnedProcess, emptyDir, privateDir, removeDir } from './owned-process';

/**
 * A nats-server of the test's own, JetStream on a temporary store directory, on a free port of
 * 127.0.0.1: killed and started on the same store, or started on an empty one (as a server whose
 * volume was lost). Never the machine's shared server.
 */
export class PrivateNats {
  private readonly process = new OwnedProcess('private nats-server');

  private constructor(
    readonly port: number,
    readonly storeDir: string,
  ) {}

  static async start(): Promise<PrivateNats> {
    const nats = new PrivateNats(await freePort(), privateDir('mapi-nats'));
    await nats.start();
    return nats;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.process.running;
  }

  /** Starts the server; `empty`: on an empty store (every stream and consumer gone). */
  async start(options: { empty?: boolean } = {}): Promise<void> {
    if (options.empty) emptyDir(this.storeDir);
    this.process.start({
      command: process.env.NATS_SERVER_BIN ?? 'nats-server',
      args: ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir],
    });
    await this.process.waitReady(async () => {
      const nc = await connect({ servers: this.url, reconnect: false, timeout: 1_000 });
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
  }
}
