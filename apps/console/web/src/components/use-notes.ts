import { useState } from 'react';
import { errorText } from '../api/client';

/**
 * A page's error and status notes; `run` runs a change: clears both, shows what the change says on
 * success (then runs `after`, e.g. a reload), or the error prefixed by the change's label.
 */
export function useNotes() {
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const run = async (label: string, call: () => Promise<string | void>, after?: () => Promise<void>) => {
    setError(null);
    setNote(null);
    try {
      const done = await call();
      if (done) setNote(done);
      await after?.();
    } catch (err) {
      setError(`${label}: ${errorText(err)}`);
    }
  };
  return { error, setError, note, setNote, run };
}
