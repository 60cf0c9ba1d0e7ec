import { OutageLog } from './outage-log';

describe('OutageLog', () => {
  const setup = (maxKinds?: number) => {
    const lines: { fields: Record<string, unknown>; msg: string }[] = [];
    let now = 1_000;
    const log = new OutageLog(
      { warn: ((fields: Record<string, unknown>, msg: string) => lines.push({ fields, msg })) as never },
      30_000,
      () => now,
      maxKinds,
    );
    return { lines, log, advance: (ms: number) => (now += ms) };
  };

  it('logs the first failure of a kind at once, counts the rest, and says how many on the next line', () => {
    const { lines, log, advance } = setup();
    for (let i = 0; i < 500; i++) log.warn('database unavailable', { err: new Error(`connect ECONNREFUSED #${i}`) });
    expect(lines).toEqual([{ fields: { err: 'connect ECONNREFUSED #0' }, msg: 'database unavailable' }]);
    advance(30_000);
    log.warn('database unavailable', { err: new Error('connect ECONNREFUSED #500') });
    expect(lines[1]).toEqual({
      fields: { err: 'connect ECONNREFUSED #500', suppressed: 499, over_ms: 30_000 },
      msg: 'database unavailable',
    });
  });

  it('logs another cause of the same kind at once (numbers in the message aside)', () => {
    const { lines, log } = setup();
    log.warn('database unavailable', { err: new Error('connect ECONNREFUSED 127.0.0.1:5432') });
    log.warn('database unavailable', { err: new Error('connect ECONNREFUSED 127.0.0.1:6543') });
    log.warn('database unavailable', { err: new Error('sorry, too many clients already') });
    expect(lines.map((l) => l.fields.err)).toEqual(['connect ECONNREFUSED 127.0.0.1:5432', 'sorry, too many clients already']);
  });

  it('keeps kinds apart, and logs at once after a quiet period', () => {
    const { lines, log, advance } = setup();
    log.warn('redis connection error', { err: 'ECONNREFUSED' });
    log.warn('database unavailable');
    log.warn('redis connection error', { err: 'ECONNREFUSED' });
    expect(lines.map((l) => l.msg)).toEqual(['redis connection error', 'database unavailable']);
    advance(60_000);
    log.warn('redis connection error', { err: 'ECONNREFUSED' });
    expect(lines[2]).toEqual({ fields: { err: 'ECONNREFUSED', suppressed: 1, over_ms: 60_000 }, msg: 'redis connection error' });
    advance(40_000);
    log.warn('redis connection error', { err: 'ECONNREFUSED' });
    expect(lines[3]).toEqual({ fields: { err: 'ECONNREFUSED' }, msg: 'redis connection error' });
  });

  it('counts failures that differ only by a UUID as one cause', () => {
    const { lines, log } = setup();
    log.warn('rpc failed', { err: new Error('no phone 3f2a9c1e-0b7d-4c55-9e2f-1a2b3c4d5e6f') });
    log.warn('rpc failed', { err: new Error('no phone A0B1C2D3-E4F5-4a6b-8c7d-9e0f1a2b3c4d') });
    expect(lines).toHaveLength(1);
  });

  it('holds at most maxKinds causes: ended windows go first, then the oldest', () => {
    const { lines, log, advance } = setup(3);
    for (const cause of ['a', 'b', 'c']) log.warn('failing', { err: cause });
    log.warn('failing', { err: 'a' }); // within its window: counted, not logged
    log.warn('failing', { err: 'd' }); // a fourth cause while all three windows run: 'a', the oldest, is forgotten
    log.warn('failing', { err: 'a' }); // so 'a' is new again, and logged (without the count it had)
    expect(lines.map((l) => l.fields.err)).toEqual(['a', 'b', 'c', 'd', 'a']);
    expect(lines[4].fields.suppressed).toBeUndefined();
    advance(30_000);
    log.warn('failing', { err: 'e' }); // every window has ended: all are forgotten, 'e' alone is kept
    log.warn('failing', { err: 'b' });
    log.warn('failing', { err: 'e' });
    expect(lines.map((l) => l.fields.err).slice(5)).toEqual(['e', 'b']);
  });
});
