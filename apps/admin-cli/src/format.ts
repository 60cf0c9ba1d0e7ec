/** Plain-text rendering helpers for the human output of the admin CLI. */

/** A left-aligned table with a header row; cells are printed as given. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** ISO time to the second, or a dash. */
export function when(date: Date | null | undefined): string {
  return date ? `${date.toISOString().slice(0, 19)}Z` : '-';
}

/** A token's display prefix, marked as incomplete. */
export function prefix(value: string): string {
  return `${value}…`;
}
