import pino from 'pino';
import { systemClock } from './clock';
import type { DeliveryStore } from './delivery-store';
import { DeliveryWorker } from './delivery-worker';

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
    {
      concurrency: 4,
      endpointLimits: { maxInFlight: 4, ratePerSecond: 100 },
      leaseMs: 1_000,
      pollMs: 10,
      idlePollMs,
      claimBatch: 10,
      flushMs: 10,
      schedule: [0],
      disableAfterMs: 60_000,
    },
    pino({ level: 'silent' }),
  );

// Fake timers: the schedule is checked exactly, so a loaded CI machine cannot stretch a gap.
describe('DeliveryWorker at rest', () => {
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z') }));
  afterEach(() => jest.useRealTimers());

  it('doubles its wait after each empty claim up to idlePollMs, where a fixed poll would claim every 10 ms', async () => {
    const { store, claims } = emptyStore();
    const w = worker(store, 160);
    w.start();
    try {
      await jest.advanceTimersByTimeAsync(1_000);
      const gaps = claims.slice(1).map((t, i) => t - claims[i]);
      expect(gaps.slice(0, 4)).toEqual([20, 40, 80, 160]);
      expect(new Set(gaps.slice(3))).toEqual(new Set([160]));
      expect(claims.length).toBe(9); // 0, 20, 60, 140, 300, 460, 620, 780, 940
    } finally {
      const stopped = w.stop();
      await jest.advanceTimersByTimeAsync(200);
      await stopped;
    }
  });

  it('claims at once when woken in the middle of an idle wait; a wake that finds nothing keeps the long wait', async () => {
    const { store, claims } = emptyStore();
    const w = worker(store, 160);
    w.start();
    try {
      await jest.advanceTimersByTimeAsync(320); // last claim at 300: the next is due at 460
      const before = claims.length;
      w.wake();
      await jest.advanceTimersByTimeAsync(0);
      expect(claims.length).toBe(before + 1);
      expect(claims[claims.length - 1] - claims[claims.length - 2]).toBe(20);
      await jest.advanceTimersByTimeAsync(159); // nothing was found: the next claim is idlePollMs after the woken one
      expect(claims.length).toBe(before + 1);
      await jest.advanceTimersByTimeAsync(1);
      expect(claims.length).toBe(before + 2);
    } finally {
      const stopped = w.stop();
      await jest.advanceTimersByTimeAsync(200);
      await stopped;
    }
  });
});
