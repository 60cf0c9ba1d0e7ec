import { ErrorCode, ServiceError } from '@mapi/contracts';

/**
 * The rate limit of Meta's callbacks, per phone (its webhook address), in each phones replica: a
 * token bucket of `perSecond` tokens refilled continuously, holding at most one second's worth. A
 * callback over it is answered 429 before any work (no database read, no signature check); Meta
 * delivers again what was not answered 200 (retries for up to 7 days, backing off), so nothing is
 * lost, only delayed. 0 turns it off.
 */
export class CallbackLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token for the phone, or throws the 429 (RATE_LIMIT_ERROR envelope). */
  take(phoneId: string): void {
    if (this.perSecond <= 0) return;
    const now = this.now();
    const b = this.buckets.get(phoneId) ?? { tokens: this.perSecond, at: now };
    b.tokens = Math.min(this.perSecond, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    if (b.tokens < 1) {
      this.buckets.set(phoneId, b);
      throw new ServiceError(
        ErrorCode.RATE_LIMIT_ERROR,
        429,
        `Too many callbacks for this phone: the limit is ${this.perSecond} per second (CLOUD_API_CALLBACK_RATE_PER_S); Meta delivers them again`,
      );
    }
    b.tokens -= 1;
    this.buckets.set(phoneId, b);
    // buckets of phones that went quiet are full again: dropped, so the map holds only the busy ones
    if (this.buckets.size > 10_000) for (const [id, x] of this.buckets) if (now - x.at > 1000) this.buckets.delete(id);
  }
}
