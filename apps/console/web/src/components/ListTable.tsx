import type { ReactNode } from 'react';
import { TableHead } from './TableHead';
import { TableScroll } from './TableScroll';

/**
 * A listing as a table: a loading note until it is read (none when reading it failed: the page shows
 * the error), a sentence when it is empty, else the table, scrolling sideways on a narrow screen.
 */
export function ListTable<T>({
  items,
  error,
  loading,
  empty,
  label,
  caption = label,
  columns,
  row,
}: {
  items: T[] | null;
  error: string | boolean | null;
  loading: string;
  empty: string;
  /** the scrolling region's name ("… (scrolls sideways)" is added) */
  label: string;
  caption?: string;
  columns: (string | false)[];
  row: (item: T) => ReactNode;
}) {
  if (items === null) return error ? null : <p role="status">{loading}</p>;
  if (items.length === 0) return <p>{empty}</p>;
  return (
    <TableScroll label={`${label} (scrolls sideways)`}>
      <table className="table">
        <caption>{caption}</caption>
        <TableHead columns={columns} />
        <tbody>{items.map(row)}</tbody>
      </table>
    </TableScroll>
  );
}
