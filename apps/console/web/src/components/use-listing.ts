import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../api/client';

/**
 * A page's listing read from `path` (its items picked from the answer), reloaded when the path
 * changes, with the page's error and status notes; `act` runs a change, shows what it says on success
 * (or the error, prefixed), and reloads the listing.
 */
export function useListing<T, A = unknown>(path: string, pick: (answer: A) => T[]) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setItems(pick(await api<A>('GET', path)));
    } catch (err) {
      setError(errorText(err));
    }
    // `pick` is a plain accessor: the path is all the listing depends on
  }, [path]);
  useEffect(() => void load(), [load]);
  const act = async (change: () => Promise<string>, errorPrefix = '') => {
    setError(null);
    setNote(null);
    try {
      setNote(await change());
      await load();
    } catch (err) {
      setError(`${errorPrefix}${errorText(err)}`);
    }
  };
  return { items, error, note, act };
}
