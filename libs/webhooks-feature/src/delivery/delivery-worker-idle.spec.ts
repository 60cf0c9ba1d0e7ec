import pino from 'pino';
import { systemClock } from './clock';
import type { DeliveryStore } from './delivery-store';
import { DeliveryWorker } from './delivery-worker';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A store with nothing due: it only counts the claims (each one a transaction in Postgres). */
function emptyStore() {
  const claims: number[] = [];
  const store = {
    claim: async () => (claims.push(Date.now()), []),
    release: async () => undefined,
    record: async () => undefined,
  } as unknown as DeliveryStore;
  return { store, claims };
}

const worker = (store: DeliveryStore, idlePollMs?: number) =>
  new DeliveryWorker(
    store,
    { send: async () => ({ status: 200 }) } as never,
    systemClock,
    { concurrency: 4, endpointLimits: { maxInFlight: 4, ratePerSecond: 100 }, leaseMs: 1_000, pollMs: 10, idlePollMs, claimBatch: 10, flushMs: 10, schedule: [0], disableAfterMs: 60_000 },
    pino({ level: 'silent' }),
  );

describe('DeliveryWorker at rest', () => {
  it('spaces its claims out while nothing is due, up to idlePollMs, and claims at once when woken', async () => {
    const { store, claims } = emptyStore();
    const w = worker(store, 160);
    w.start();
    try {
      await sleep(1_000);
      // 10, 20, 40, 80, 160, 160… ms: about 9 claims in a second, where a fixed 10 ms poll makes ~90.
      expect(claims.length).toBeGreaterThanOrEqual(5);
      expect(claims.length).toBeLessThanOrEqual(14);
      const gaps = claims.slice(1).map((t, i) => t - claims[i]);
      expect(Math.max(...gaps)).toBeLessThan(160 + 100);
      // Wake it just after an idle claim, so its own timer would claim next 160 ms later: the woken
      // claim comes well before that (a loaded machine may delay it some, never by a whole poll).
      const seen = claims.length;
      while (claims.length === seen) await sleep(1);
      const before = claims.length;
      const wokenAt = Date.now();
      w.wake();
      while (claims.length === before && Date.now() - wokenAt < 1_000) await sleep(1);
      expect(claims.length).toBe(before + 1);
      expect(claims[claims.length - 1] - wokenAt).toBeLessThan(100);
    } finally {
      await w.stop();
    }
  });
});
