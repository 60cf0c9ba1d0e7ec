import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('returns a value until its ttl has passed, then forgets it', () => {
    const cache = new TtlCache<string>(1_000);
    cache.set('k', 'v');
    expect(cache.get('k')).toBe('v');
    jest.advanceTimersByTime(999);
    expect(cache.get('k')).toBe('v');
    jest.advanceTimersByTime(1);
    expect(cache.get('k')).toBeUndefined();
  });

  it('restarts the ttl when a key is set again', () => {
    const cache = new TtlCache<number>(1_000);
    cache.set('k', 1);
    jest.advanceTimersByTime(800);
    cache.set('k', 2);
    jest.advanceTimersByTime(800);
    expect(cache.get('k')).toBe(2);
  });

  it('can cache null values (distinct from a miss)', () => {
    const cache = new TtlCache<string | null>(1_000);
    cache.set('k', null);
    expect(cache.get('k')).toBeNull();
    expect(cache.get('other')).toBeUndefined();
  });

  it('never holds more than maxEntries, dropping the oldest first', () => {
    const cache = new TtlCache<number>(60_000, 3);
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, i);
    expect(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6'].map((k) => cache.get(k))).toEqual(Array(7).fill(undefined));
    expect(cache.get('k7')).toBe(7);
    expect(cache.get('k8')).toBe(8);
    expect(cache.get('k9')).toBe(9);
  });

  it.each([0, -1])('never caches with a ttl of %p', (ttl) => {
    const cache = new TtlCache<string>(ttl);
    cache.set('k', 'v');
    expect(cache.get('k')).toBeUndefined();
  });
});
