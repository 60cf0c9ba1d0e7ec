import { histogramPieces, type Piece } from './histogram-pieces';

const MIN = 60_000;
const STEP = 15 * MIN;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-11-01T00:00:00Z');

/** How many times each quarter hour of [from, to) is counted by the pieces (a day row counts its whole days, an hour row its hours). */
function coverage(pieces: Piece[], from: number, to: number): number[] {
  const counts = new Array<number>((to - from) / STEP).fill(0);
  for (const p of pieces) {
    const unit = p.unit === 'd' ? DAY : p.unit === 'h' ? HOUR : STEP;
    // rows of a unit start on its boundaries: a day or hour piece holds whole units only
    expect(p.s % unit).toBe(0);
    expect(p.e % unit).toBe(0);
    for (let t = p.s; t < p.e; t += STEP) counts[(t - from) / STEP] += p.sign;
  }
  return counts;
}

describe('histogramPieces', () => {
  it('sums to each range exactly: 1 inside, 0 outside, for ranges on 15-minute and half-hour ends', () => {
    const cases: [number, number][] = [
      [T0, T0 + 90 * DAY],
      [T0 + 21 * HOUR + 30 * MIN, T0 + 7 * DAY + 21 * HOUR + 30 * MIN],
      [T0 - HOUR, T0 + 23 * HOUR], // a Europe/Berlin day in winter
      [T0 - 5 * HOUR - 30 * MIN, T0 + 18 * HOUR + 30 * MIN], // an Asia/Kolkata day
      [T0 + 10 * HOUR, T0 + 11 * HOUR],
      [T0 + 10 * HOUR + 15 * MIN, T0 + 10 * HOUR + 45 * MIN],
      [T0 + 11 * HOUR + 45 * MIN, T0 + 36 * HOUR + 15 * MIN],
    ];
    for (const [s, e] of cases) {
      const pieces = histogramPieces([{ b: 0, s, e }]);
      const from = s - 2 * DAY;
      const to = e + 2 * DAY;
      const expected = Array.from({ length: (to - from) / STEP }, (_, i) => (from + i * STEP >= s && from + i * STEP < e ? 1 : 0));
      expect(coverage(pieces, from, to)).toEqual(expected);
    }
  });

  it('a local day east of UTC is one day row and one hour at each end, not 24 hour rows', () => {
    const pieces = histogramPieces([{ b: 3, s: T0 - HOUR, e: T0 + 23 * HOUR }]);
    expect(pieces).toEqual([
      { b: 3, unit: 'd', s: T0, e: T0 + DAY, sign: 1 },
      { b: 3, unit: 'h', s: T0 - HOUR, e: T0, sign: 1 },
      { b: 3, unit: 'h', s: T0 + 23 * HOUR, e: T0 + DAY, sign: -1 },
    ]);
  });

  it('an empty or inverted range has no piece', () => {
    expect(histogramPieces([{ b: 0, s: T0, e: T0 }])).toEqual([]);
    expect(histogramPieces([{ b: 0, s: T0 + HOUR, e: T0 }])).toEqual([]);
  });
});
