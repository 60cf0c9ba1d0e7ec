import type { FormEvent } from 'react';
import { replayWindow } from './delivery-log-view';

/** The replay form of a delivery log: a window in the reader's local time; an empty or reversed one is refused here. */
export function ReplayForm({
  onReplay,
  onError,
}: {
  onReplay: (range: { from: string; to: string }) => void;
  onError: (error: string) => void;
}) {
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const range = replayWindow(String(data.get('from') ?? ''), String(data.get('to') ?? ''));
    if ('error' in range) return onError(range.error);
    onReplay(range);
  };
  return (
    <form className="row" onSubmit={submit} aria-label="Replay events">
      <label>
        Replay events from
        <input name="from" type="datetime-local" step={1} />
      </label>
      <label>
        to
        <input name="to" type="datetime-local" step={1} />
      </label>
      <button type="submit" className="secondary">
        Replay
      </button>
    </form>
  );
}
