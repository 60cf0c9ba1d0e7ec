const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Rows of one unit over [s, e) (epoch ms), added (sign 1) or taken away (−1) for output bucket `b`; `r`: the samples themselves (raw). */
export interface Piece {
  b: number;
  unit: 'd' | 'h' | 'r';
  s: number;
  e: number;
  sign: 1 | -1;
}

/** [s, e) as hour rows for its whole UTC hours and the samples themselves at its ends. */
function hours(b: number, s: number, e: number, sign: 1 | -1, out: Piece[]): void {
  if (!(s < e)) return;
  const hs = Math.ceil(s / HOUR) * HOUR;
  const he = Math.floor(e / HOUR) * HOUR;
  if (he <= hs) {
    out.push({ b, unit: 'r', s, e, sign });
    return;
  }
  if (s < hs) out.push({ b, unit: 'r', s, e: hs, sign });
  out.push({ b, unit: 'h', s: hs, e: he, sign });
  if (he < e) out.push({ b, unit: 'r', s: he, e, sign });
}

/**
 * The histogram rows that sum to the samples of each range [s, e) (epoch ms; docs/decisions/0096): the UTC days
 * nearest its ends as day rows, then the difference at each end (under 12 hours) added or taken away as hour rows,
 * and the samples themselves for what is not a whole hour (a period's 15-minute ends, a half-hour time zone). A
 * local day of a time zone east or west of UTC is one day row and two short runs of hour rows, not 24 hour rows.
 */
export function histogramPieces(ranges: readonly { b: number; s: number; e: number }[]): Piece[] {
  const out: Piece[] = [];
  for (const { b, s, e } of ranges) {
    if (!(s < e)) continue;
    const ds = Math.round(s / DAY) * DAY;
    const de = Math.round(e / DAY) * DAY;
    if (de <= ds) {
      hours(b, s, e, 1, out);
      continue;
    }
    out.push({ b, unit: 'd', s: ds, e: de, sign: 1 });
    if (s < ds) hours(b, s, ds, 1, out);
    else hours(b, ds, s, -1, out);
    if (de < e) hours(b, de, e, 1, out);
    else hours(b, e, de, -1, out);
  }
  return out;
}
