import type { Clock } from './clock';

interface EndpointState {
  inFlight: number;
  tokens: number;
  refilledAt: number;
}

/**
 * Per-endpoint fairness: at most `maxInFlight` concurrent requests and `ratePerSecond` starts per
 * second (token bucket, burst = one second's worth) to one origin, so a slow or flooded customer
 * cannot take every worker slot from the others.
 */
export class EndpointLimiter {
  private readonly states = new Map<string, EndpointState>();

  constructor(
    private readonly maxInFlight: number,
    private readonly ratePerSecond: number,
    private readonly clock: Clock,
  ) {}

  private state(endpoint: string): EndpointState {
    let s = this.states.get(endpoint);
    const now = this.clock.now().getTime();
    if (!s) {
      s = { inFlight: 0, tokens: this.ratePerSecond, refilledAt: now };
      this.states.set(endpoint, s);
    }
    const elapsed = now - s.refilledAt;
    if (elapsed > 0) {
      s.tokens = Math.min(this.ratePerSecond, s.tokens + (elapsed * this.ratePerSecond) / 1000);
      s.refilledAt = now;
    }
    return s;
  }

  /** Takes a slot if the endpoint has one now. */
  tryAcquire(endpoint: string): boolean {
    const s = this.state(endpoint);
    if (s.inFlight >= this.maxInFlight || s.tokens < 1) return false;
    s.inFlight++;
    s.tokens--;
    return true;
  }

  release(endpoint: string): void {
    const s = this.states.get(endpoint);
    if (!s) return;
    s.inFlight = Math.max(0, s.inFlight - 1);
    if (s.inFlight === 0 && s.tokens >= this.ratePerSecond) this.states.delete(endpoint);
  }

  /** Milliseconds until the endpoint gets a token again (0 when it has one). */
  waitMs(endpoint: string): number {
    const s = this.state(endpoint);
    return s.tokens >= 1 ? 0 : Math.ceil(((1 - s.tokens) * 1000) / this.ratePerSecond);
  }
}
