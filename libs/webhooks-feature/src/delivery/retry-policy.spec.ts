import { DEFAULT_RETRY_SCHEDULE_MS, decideAfterAttempt, isSustainedFailure, parseRetryAfter } from './retry-policy';

/** A fake clock: the schedule is walked attempt by attempt without waiting. */
class FakeClock {
  constructor(private t: number) {}
  now() {
    return new Date(this.t);
  }
  set(d: Date) {
    this.t = d.getTime();
  }
}

const fail500 = { status: 500, timedOut: false };
const MIN = 60_000;
const H = 3_600_000;

describe('retry schedule', () => {
  it('walks immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up (no jitter at random 0.5)', () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 1));
    const start = clock.now().getTime();
    const gaps: number[] = [];
    let attempt = 1;
    for (;;) {
      const d = decideAfterAttempt(fail500, attempt, clock.now(), () => 0.5);
      if (d.kind !== 'retry') {
        expect(d.kind).toBe('exhausted');
        break;
      }
      gaps.push(d.at.getTime() - clock.now().getTime());
      clock.set(d.at);
      attempt++;
    }
    expect(attempt).toBe(8);
    expect(gaps).toEqual([5_000, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H]);
    expect(clock.now().getTime() - start).toBe(DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0));
  });

  it('jitters each delay within ±20%', () => {
    const now = new Date(0);
    const low = decideAfterAttempt(fail500, 2, now, () => 0);
    const high = decideAfterAttempt(fail500, 2, now, () => 0.999999);
    expect(low).toEqual({ kind: 'retry', at: new Date(4 * MIN) });
    expect(high.kind === 'retry' && high.at.getTime()).toBeCloseTo(6 * MIN, -2);
  });

  it('settles on 2xx, and stops at once on 410', () => {
    expect(decideAfterAttempt({ status: 204, timedOut: false }, 1, new Date())).toEqual({ kind: 'succeeded' });
    expect(decideAfterAttempt({ status: 410, timedOut: false }, 1, new Date())).toEqual({ kind: 'gone' });
    expect(decideAfterAttempt({ status: 301, timedOut: false }, 1, new Date(0), () => 0.5)).toEqual({ kind: 'retry', at: new Date(5_000) });
  });

  it('waits at least 60 s after a 429 or a timeout', () => {
    expect(decideAfterAttempt({ status: 429, timedOut: false }, 1, new Date(0), () => 0.5)).toEqual({ kind: 'retry', at: new Date(MIN) });
    expect(decideAfterAttempt({ status: null, timedOut: true }, 1, new Date(0), () => 0.5)).toEqual({ kind: 'retry', at: new Date(MIN) });
    expect(decideAfterAttempt({ status: null, timedOut: false }, 1, new Date(0), () => 0.5)).toEqual({
      kind: 'retry',
      at: new Date(5_000),
    });
  });

  it('honours Retry-After (seconds or HTTP date) when later than the schedule, capped at 24 h', () => {
    const now = new Date(Date.UTC(2026, 0, 1));
    const at = (retryAfter: string, status = 503) => {
      const d = decideAfterAttempt({ status, timedOut: false, retryAfter }, 1, now, () => 0.5);
      return d.kind === 'retry' ? d.at.getTime() - now.getTime() : -1;
    };
    expect(at('120')).toBe(120_000);
    expect(at('1')).toBe(5_000);
    expect(at(new Date(now.getTime() + 7 * MIN).toUTCString())).toBe(7 * MIN);
    expect(at('999999')).toBe(24 * H);
    expect(at('2', 429)).toBe(MIN);
    expect(at('soon')).toBe(5_000);
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('calls a failure streak of 5 days sustained', () => {
    const now = new Date(Date.UTC(2026, 0, 10));
    const fiveDays = 5 * 24 * H;
    expect(isSustainedFailure(null, now, fiveDays)).toBe(false);
    expect(isSustainedFailure(new Date(now.getTime() - fiveDays + 1), now, fiveDays)).toBe(false);
    expect(isSustainedFailure(new Date(now.getTime() - fiveDays), now, fiveDays)).toBe(true);
  });
});
