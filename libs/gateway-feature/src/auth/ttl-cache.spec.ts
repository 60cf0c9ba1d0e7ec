import { Errors } from '@mapi/contracts';
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

  describe('getOrLoad', () => {
    const dbDown = () => Object.assign(new Error("Can't reach database server"), { code: 'P1001' });

    it('loads once for every concurrent caller of a key, then answers from the cache', async () => {
      const cache = new TtlCache<string>(1_000);
      let loads = 0;
      let release!: (v: string) => void;
      const load = () => {
        loads++;
        return new Promise<string>((r) => (release = r));
      };
      const callers = Array.from({ length: 50 }, () => cache.getOrLoad('k', load));
      release('v');
      expect(await Promise.all(callers)).toEqual(Array(50).fill('v'));
      expect(await cache.getOrLoad('k', load)).toBe('v');
      expect(loads).toBe(1);
    });

    it('while the source is away, answers an entry expired less than staleMs ago; past that, the failure', async () => {
      const cache = new TtlCache<string>(1_000, 10, 5_000);
      await cache.getOrLoad('k', async () => 'v');
      jest.advanceTimersByTime(1_000);
      expect(cache.get('k')).toBeUndefined(); // expired: get never answers a stale value
      expect(await cache.getOrLoad('k', () => Promise.reject(dbDown()))).toBe('v');
      // a service answering 503 is the source away too
      expect(await cache.getOrLoad('k', () => Promise.reject(Errors.unavailable('phones is away')))).toBe('v');
      jest.advanceTimersByTime(5_000); // 6 s after the load: 5 s past its expiry
      await expect(cache.getOrLoad('k', () => Promise.reject(dbDown()))).rejects.toMatchObject({ code: 'P1001' });
    });

    it('a failure that is not an outage is never covered by a stale entry', async () => {
      const cache = new TtlCache<string>(1_000, 10, 5_000);
      await cache.getOrLoad('k', async () => 'v');
      jest.advanceTimersByTime(1_500);
      await expect(cache.getOrLoad('k', () => Promise.reject(new Error('bug')))).rejects.toThrow('bug');
      await expect(cache.getOrLoad('k', () => Promise.reject(Errors.notFound('gone')))).rejects.toThrow('gone');
    });

    it('loads again after a failure, and caches only what keep accepts', async () => {
      const cache = new TtlCache<string | null>(1_000);
      await expect(cache.getOrLoad('k', () => Promise.reject(dbDown()))).rejects.toMatchObject({ code: 'P1001' });
      const keep = (v: string | null) => v !== null;
      expect(await cache.getOrLoad('k', async () => null, keep)).toBeNull();
      expect(cache.get('k')).toBeUndefined();
      expect(await cache.getOrLoad('k', async () => 'v', keep)).toBe('v');
      expect(cache.get('k')).toBe('v');
    });

    it('a fresh value replaces a stale one, and with no stale window nothing stale is answered', async () => {
      const cache = new TtlCache<string>(1_000);
      await cache.getOrLoad('k', async () => 'old');
      jest.advanceTimersByTime(1_000);
      await expect(cache.getOrLoad('k', () => Promise.reject(dbDown()))).rejects.toMatchObject({ code: 'P1001' });
      expect(await cache.getOrLoad('k', async () => 'new')).toBe('new');
    });
  });
});
