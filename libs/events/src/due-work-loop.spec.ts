import pino from 'pino';
import { DueWorkLoop } from './due-work-loop';

const logger = pino({ level: 'silent' });
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DueWorkLoop', () => {
  const loops: DueWorkLoop[] = [];
  afterEach(async () => Promise.all(loops.splice(0).map((l) => l.stop())));
  const start = async (round: () => Promise<{ more: boolean; nextDueInMs: number | null }>) => {
    const loop = new DueWorkLoop(round, logger, { idlePollMs: 60_000, fallbackPollMs: 60_000, channel: 'test', what: 'test' });
    loops.push(loop);
    await loop.start();
    return loop;
  };

  it('sleeps the idle poll at rest, and an announcement without a time wakes it at once', async () => {
    const rounds: number[] = [];
    const loop = await start(async () => (rounds.push(Date.now()), { more: false, nextDueInMs: null }));
    await settle(100);
    expect(rounds).toHaveLength(1);
    loop.announce();
    await settle(50);
    expect(rounds).toHaveLength(2);
  });

  it('keeps the earliest announced time: a later announcement does not postpone it', async () => {
    const rounds: number[] = [];
    const loop = await start(async () => (rounds.push(Date.now()), { more: false, nextDueInMs: null }));
    await settle(50);
    const at = Date.now() + 150;
    loop.announce(at);
    loop.announce(Date.now() + 30_000);
    await settle(100);
    expect(rounds).toHaveLength(1);
    await settle(200);
    expect(rounds).toHaveLength(2);
    expect(rounds[1]).toBeGreaterThanOrEqual(at - 5);
  });

  it('goes again at once while a round says more, then sleeps until the next item is due', async () => {
    let n = 0;
    const rounds: number[] = [];
    await start(async () => (rounds.push(Date.now()), { more: ++n < 3, nextDueInMs: n < 3 ? 0 : 200 }));
    await settle(100);
    expect(rounds).toHaveLength(3);
    await settle(250);
    expect(rounds).toHaveLength(4);
  });

  it('a failing round is logged and tried again, never ends the loop', async () => {
    let n = 0;
    await start(async () => {
      if (++n === 1) throw new Error('database down');
      return { more: false, nextDueInMs: null };
    });
    await settle(1_300);
    expect(n).toBe(2);
  });
});
