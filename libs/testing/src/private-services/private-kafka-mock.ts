import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The repository's root (this file is libs/testing/src/private-services/). */
const ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * The Kafka sink tests' broker: librdkafka's mock cluster (scripts/kafka-mock-cluster.c, built by
 * scripts/ensure-kafka-mock.sh against Debian's librdkafka). No Apache Kafka runs on these machines;
 * this one speaks the Kafka wire protocol over TCP on 127.0.0.1 (Metadata, Produce, Fetch, consumer
 * groups) and keeps messages in memory: no SASL, no TLS, no CreateTopics (topics come from `topic`).
 * It exits when its stdin closes, so it never outlives the test that started it.
 */
export class PrivateKafkaMock {
  private readonly pending: Array<(line: string) => void> = [];
  private exited = false;

  private constructor(
    private readonly child: ChildProcess,
    /** host:port of each broker, comma-separated (what the mock advertises). */
    readonly bootstrap: string,
  ) {
    child.once('exit', () => {
      this.exited = true;
      for (const answer of this.pending.splice(0)) answer('error exited');
    });
  }

  /** `topics`: name → partitions, created before it answers. */
  static async start(options: { brokers?: number; topics?: Record<string, number> } = {}): Promise<PrivateKafkaMock> {
    const bin = execFileSync('bash', [join(ROOT, 'scripts/ensure-kafka-mock.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop() as string;
    const topics = Object.entries(options.topics ?? {}).map(([name, n]) => `${name}:${n}`);
    const child = spawn(bin, [String(options.brokers ?? 1), ...topics], { stdio: ['pipe', 'pipe', 'pipe'] });
    const errors: string[] = [];
    child.stderr?.on('data', (c: Buffer) => errors.push(c.toString('utf8')));
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const first = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the Kafka mock cluster did not start within 10 s')), 10_000);
      lines.once('line', (l) => (clearTimeout(timer), resolve(l)));
      child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the Kafka mock cluster exited (${code}): ${errors.join('')}`))));
    });
    const mock = new PrivateKafkaMock(child, first.trim());
    lines.on('line', (l) => mock.pending.shift()?.(l));
    return mock;
  }

  /** host:port of the first broker (a sink's URL takes one bootstrap broker). */
  get hostPort(): string {
    return this.bootstrap.split(',')[0];
  }

  get url(): string {
    return `kafka://${this.hostPort}`;
  }

  createTopic(name: string, partitions: number): Promise<void> {
    return this.command(`topic ${name} ${partitions}`);
  }

  /** The broker (1-based) drops its connections and refuses new ones until `up`. */
  down(broker = 1): Promise<void> {
    return this.command(`down ${broker}`);
  }

  up(broker = 1): Promise<void> {
    return this.command(`up ${broker}`);
  }

  async destroy(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((r) => this.child.once('exit', r));
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  }

  private command(line: string): Promise<void> {
    if (this.exited) return Promise.reject(new Error('the Kafka mock cluster has exited'));
    return new Promise((resolve, reject) => {
      this.pending.push((answer) => (answer === 'ok' ? resolve() : reject(new Error(`${line}: ${answer}`))));
      this.child.stdin?.write(`${line}\n`);
    });
  }
}
