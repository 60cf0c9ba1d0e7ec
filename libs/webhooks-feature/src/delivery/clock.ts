/** The scheduler's notion of now: injected so the retry schedule can run under a fake clock in tests. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
