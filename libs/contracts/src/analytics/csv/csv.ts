import type { CsvCell } from '../../http/define-route';

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break; a text starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'` so a spreadsheet does not run it
 * as a formula (names and ids come from users). Numbers as they are; null empty.
 */
export function csvCell(v: CsvCell): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A table as CSV text: CRLF line ends, one line per row (header first). */
export const csvText = (rows: readonly (readonly CsvCell[])[]): string => rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
