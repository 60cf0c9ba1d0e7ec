import { CachedReading } from './cached-reading';

describe('CachedReading', () => {
  it('shares one reading within cacheMs, takes a new one after it, and does not keep a failure', async () => {
    let calls = 0;
    let fail = false;
    const reading = new CachedReading(async () => {
      calls++;
      if (fail) throw new Error('down');
      return calls;
    }, 50);
    expect(await Promise.all([reading.read(), reading.read()])).toEqual([1, 1]);
    expect(calls).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    fail = true;
    await expect(reading.read()).rejects.toThrow('down');
    fail = false;
    expect(await reading.read()).toBe(3);
  });
});
