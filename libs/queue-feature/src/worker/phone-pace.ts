/**
 * How fast a phone's queue goes, by the phone's connector (docs/services/queue.md, "Pacing").
 *
 * A linked device (Baileys, the sandbox) sends like a person: one message per `QUEUE_SEND_INTERVAL_MS`
 * plus a random jitter (numbers sending at machine-regular intervals get banned). A Cloud API number is
 * Meta's business platform: it takes `CLOUD_API_SEND_RATE_PER_S` messages a second (Meta's default
 * throughput, 80) without jitter, and is served by one replica at a time (`exclusive`), since at that
 * pace two replicas would send one phone's messages side by side, out of order. Within that replica up to
 * `CLOUD_API_SEND_CONCURRENCY` of its sends are in flight at once, one per chat (chat-turns.ts): one
 * send's round trip would otherwise bound the phone's rate. A linked device sends one at a time.
 */
export interface Pace {
  /** BullMQ's limiter: at most `max` jobs started per `duration` ms (kept in Redis, so it holds across replicas). */
  limiter: { max: number; duration: number };
  /** Whether each submission waits a random 0..`QUEUE_SEND_JITTER_MS` more. */
  jitter: boolean;
  /** One replica at a time serves the phone (a lease in Redis), so its messages go in order at a fast pace. */
  exclusive: boolean;
  /** Sends in flight at once (never two to one chat); 1 for a linked device, whose session goes one at a time. */
  concurrency: number;
  kind: 'linked-device' | 'cloud-api';
}

export interface PaceSettings {
  intervalMs: number;
  cloudApiRatePerSecond: number;
  /** A Cloud API phone's sends in flight at once (`CLOUD_API_SEND_CONCURRENCY`); 1 when not given. */
  cloudApiConcurrency?: number;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** `perSecond` as BullMQ's limiter with whole milliseconds and the smallest bursts: 80/s is 2 per 25 ms. */
export function rateLimiter(perSecond: number): { max: number; duration: number } {
  const rate = Math.max(1, Math.floor(perSecond));
  const g = gcd(rate, 1000);
  return { max: rate / g, duration: 1000 / g };
}

export function paceFor(connector: string | null, s: PaceSettings): Pace {
  if (connector === 'cloud_api')
    return {
      limiter: rateLimiter(s.cloudApiRatePerSecond),
      jitter: false,
      exclusive: true,
      concurrency: Math.max(1, Math.floor(s.cloudApiConcurrency ?? 1)),
      kind: 'cloud-api',
    };
  return {
    limiter: { max: 1, duration: Math.max(1, s.intervalMs) },
    jitter: true,
    exclusive: false,
    concurrency: 1,
    kind: 'linked-device',
  };
}

/** A phone's connector (`null`: the phone is unknown, e.g. deleted); throws when it cannot be asked now. */
export type ConnectorOf = (phoneId: string) => Promise<string | null>;

/**
 * Each phone's pace, asked once per phone (a phone's connector never changes) when its worker starts.
 * A phone nobody knows (deleted, no job on record) gets the linked-device pace, the slow and safe one,
 * and is asked again when its worker next starts. Without `connectorOf`, every phone is a linked device.
 */
export class PhonePaces {
  private readonly known = new Map<string, Pace>();

  constructor(
    private readonly settings: PaceSettings,
    private readonly connectorOf?: ConnectorOf,
  ) {}

  async of(phoneId: string): Promise<Pace> {
    const cached = this.known.get(phoneId);
    if (cached) return cached;
    const connector = this.connectorOf ? await this.connectorOf(phoneId) : null;
    const pace = paceFor(connector, this.settings);
    if (connector) this.known.set(phoneId, pace);
    return pace;
  }
}
