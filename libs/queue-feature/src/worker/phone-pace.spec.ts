import { PhonePaces, paceFor, rateLimiter } from './phone-pace';

const settings = { intervalMs: 1_000, cloudApiRatePerSecond: 80 };

describe("a phone's send pace by its connector", () => {
  it('paces a Cloud API number at its rate, without jitter, served by one replica; linked devices at the interval with jitter', () => {
    expect(paceFor('cloud_api', settings)).toEqual({
      limiter: { max: 2, duration: 25 },
      jitter: false,
      exclusive: true,
      concurrency: 1,
      kind: 'cloud-api',
    });
    expect(paceFor('cloud_api', { ...settings, cloudApiConcurrency: 8 }).concurrency).toBe(8);
    expect(paceFor('cloud_api', { ...settings, cloudApiConcurrency: 0 }).concurrency).toBe(1);
    for (const connector of ['baileys', 'sandbox', null])
      expect(paceFor(connector, settings)).toEqual({
        limiter: { max: 1, duration: 1_000 },
        jitter: true,
        exclusive: false,
        concurrency: 1,
        kind: 'linked-device',
      });
    // a linked-device session sends one at a time, whatever the Cloud API's setting
    expect(paceFor('baileys', { ...settings, cloudApiConcurrency: 8 }).concurrency).toBe(1);
    expect(paceFor('sandbox', { ...settings, intervalMs: 0 }).limiter).toEqual({ max: 1, duration: 1 });
  });

  it('turns a rate into whole milliseconds with the smallest bursts, exactly that many a second', () => {
    expect(rateLimiter(80)).toEqual({ max: 2, duration: 25 });
    expect(rateLimiter(1)).toEqual({ max: 1, duration: 1_000 });
    expect(rateLimiter(250)).toEqual({ max: 1, duration: 4 });
    expect(rateLimiter(1_000)).toEqual({ max: 1, duration: 1 });
    expect(rateLimiter(3)).toEqual({ max: 3, duration: 1_000 });
    expect(rateLimiter(0)).toEqual({ max: 1, duration: 1_000 });
    for (const rate of [1, 3, 7, 80, 120, 333, 500, 999]) {
      const { max, duration } = rateLimiter(rate);
      expect((max * 1_000) / duration).toBe(rate);
    }
  });

  it("asks each phone's connector once; an unknown phone is a linked device and asked again; a failed ask is thrown", async () => {
    const asked: string[] = [];
    const connectors: Record<string, string | null> = { cloud: 'cloud_api', qr: 'baileys', gone: null };
    let failing = false;
    const paces = new PhonePaces(settings, async (phoneId) => {
      asked.push(phoneId);
      if (failing) throw new Error('phones service away');
      return connectors[phoneId];
    });
    expect((await paces.of('cloud')).kind).toBe('cloud-api');
    expect((await paces.of('cloud')).kind).toBe('cloud-api');
    expect((await paces.of('qr')).kind).toBe('linked-device');
    expect((await paces.of('gone')).kind).toBe('linked-device');
    expect((await paces.of('gone')).kind).toBe('linked-device');
    expect(asked).toEqual(['cloud', 'qr', 'gone', 'gone']);
    failing = true;
    await expect(paces.of('new')).rejects.toThrow(/phones service away/);
    expect((await paces.of('cloud')).kind).toBe('cloud-api'); // known already: not asked
    expect((await new PhonePaces(settings).of('cloud')).kind).toBe('linked-device');
  });
});
