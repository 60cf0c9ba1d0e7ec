import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'amqplib';
import { freePort } from '../processes';
import { randomSuffix } from '../test-env';
import { OwnedProcess, privateDir, removeDir } from './owned-process';
import { writeServerTls, type ServerTls } from './server-tls';

/**
 * A RabbitMQ node of the test's own (Debian's rabbitmq-server), never the machine's shared one: its
 * own node name, AMQP and distribution ports on 127.0.0.1, data (mnesia) and logs in a temporary
 * directory, a HOME of its own (so its own Erlang cookie) and no plugins. It registers with the
 * machine's epmd (port 4369), as every Erlang node here does. Killed or stopped and started again on
 * the same data: durable exchanges and queues and the persistent messages in them are kept. With `tls`,
 * an amqps listener beside the plain one (`tlsPort`, `tlsUrl`) that requires a client certificate from
 * `tls.ca` (verify_peer, fail_if_no_peer_cert).
 */
export class PrivateRabbitMQ {
  private readonly process = new OwnedProcess('private rabbitmq-server');
  /** How long the last start took until AMQP answered (ms). */
  lastStartMs = 0;
  /** The amqps listener's port (0: none). */
  tlsPort = 0;

  private constructor(
    readonly port: number,
    readonly distPort: number,
    readonly dir: string,
    readonly nodeName: string,
  ) {}

  static async start(options: { timeoutMs?: number; tls?: ServerTls } = {}): Promise<PrivateRabbitMQ> {
    const dir = privateDir('mapi-rabbitmq');
    const rabbit = new PrivateRabbitMQ(await freePort(), await freePort(), dir, `mapi${randomSuffix(4)}@localhost`);
    mkdirSync(join(dir, 'home'));
    // no plugins (the management plugin would listen on 15672); a config file of its own (the machine's
    // /etc/rabbitmq names port 5672 and the shared node), and an env file of its own for the same reason
    writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
    writeFileSync(join(dir, 'rabbitmq-env.conf'), '');
    const conf = [`listeners.tcp.local = 127.0.0.1:${rabbit.port}`];
    if (options.tls) {
      rabbit.tlsPort = await freePort();
      const files = writeServerTls(dir, options.tls);
      conf.push(
        `listeners.ssl.local = 127.0.0.1:${rabbit.tlsPort}`,
        `ssl_options.cacertfile = ${files.ca}`,
        `ssl_options.certfile = ${files.cert}`,
        `ssl_options.keyfile = ${files.key}`,
        'ssl_options.verify = verify_peer',
        'ssl_options.fail_if_no_peer_cert = true',
      );
    }
    writeFileSync(join(dir, 'rabbitmq.conf'), conf.join('\n') + '\n');
    try {
      await rabbit.start(options);
    } catch (err) {
      removeDir(dir);
      throw err;
    }
    return rabbit;
  }

  get url(): string {
    return `amqp://guest:guest@127.0.0.1:${this.port}`;
  }

  /** The amqps listener (without credentials: a sink's URL). */
  get tlsUrl(): string {
    if (!this.tlsPort) throw new Error('this RabbitMQ has no TLS listener (start it with tls)');
    return `amqps://127.0.0.1:${this.tlsPort}`;
  }

  get running(): boolean {
    return this.process.running;
  }

  /** Starts the node on its data; resolves once AMQP answers. */
  async start(options: { timeoutMs?: number } = {}): Promise<void> {
    const started = Date.now();
    const env: Record<string, string> = {
      HOME: join(this.dir, 'home'),
      RABBITMQ_NODENAME: this.nodeName,
      RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
      RABBITMQ_NODE_PORT: String(this.port),
      RABBITMQ_DIST_PORT: String(this.distPort),
      RABBITMQ_CONF_ENV_FILE: join(this.dir, 'rabbitmq-env.conf'),
      RABBITMQ_CONFIG_FILE: join(this.dir, 'rabbitmq.conf'),
      RABBITMQ_ADVANCED_CONFIG_FILE: join(this.dir, 'advanced.config'),
      RABBITMQ_ENABLED_PLUGINS_FILE: join(this.dir, 'enabled_plugins'),
      RABBITMQ_MNESIA_BASE: join(this.dir, 'mnesia'),
      RABBITMQ_LOG_BASE: join(this.dir, 'log'),
      RABBITMQ_PLUGINS_EXPAND_DIR: join(this.dir, 'plugins-expand'),
      RABBITMQ_PID_FILE: join(this.dir, 'pid'),
      RABBITMQ_LOGS: '-',
      ERL_EPMD_ADDRESS: '127.0.0.1',
      ERL_FLAGS: '-kernel inet_dist_use_interface {127,0,0,1}',
      // the script then execs the Erlang VM itself (no wrapper shell): a signal reaches the node, and a
      // SIGKILL leaves nothing behind
      RUNNING_UNDER_SYSTEMD: 'true',
    };
    this.process.start({ command: process.env.RABBITMQ_SERVER_BIN ?? '/usr/lib/rabbitmq/bin/rabbitmq-server', args: [], env });
    await this.process.waitReady(async () => {
      const conn = await connect(this.url, { timeout: 1_000 });
      await conn.close();
      return true;
    }, options.timeoutMs ?? 60_000);
    this.lastStartMs = Date.now() - started;
  }

  /** SIGTERM: a clean shutdown. */
  stop(): Promise<void> {
    return this.process.signal('SIGTERM', 30_000);
  }

  /** SIGKILL: the node dies at once (what it confirmed as persistent is on disk). */
  kill(): Promise<void> {
    return this.process.signal('SIGKILL');
  }

  async restart(options: { kill?: boolean; timeoutMs?: number } = {}): Promise<void> {
    await (options.kill ? this.kill() : this.stop());
    await this.start(options);
  }

  /** The node's last lines of output (for a failure's message). */
  get lines(): readonly string[] {
    return this.process.lines;
  }

  async destroy(): Promise<void> {
    await this.kill();
    removeDir(this.dir);
  }
}
