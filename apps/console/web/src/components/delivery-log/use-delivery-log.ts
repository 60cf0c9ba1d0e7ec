import { useCallback, useEffect, useState } from 'react';
import { api, errorText } from '../../api/client';
import type { WebhookAttempt } from '../../api/types';
import { useNotes } from '../use-notes';
import { deliveriesPath, redeliveredNote, replayNote, type DeliveryLogAnswer } from './delivery-log-view';

/** The log is read again this often while the page is open (new attempts, retries, redeliveries). */
const REFRESH_MS = 2_000;

/**
 * A detail page with a delivery log (a webhook subscription, an event sink) at `base` (`/webhooks/{id}`):
 * the item, its log (read again every 2 s), the page's error and status notes; `run` runs a change and
 * shows what it says (or the error, prefixed by its label); `redeliver` and `replay` are the log's own changes.
 */
export function useDeliveryLog<T>(base: string) {
  const [item, setItem] = useState<T | null>(null);
  const [log, setLog] = useState<DeliveryLogAnswer | null>(null);
  const { error, setError, note, setNote, run } = useNotes();
  const loadLog = useCallback(async () => {
    try {
      setLog(await api<DeliveryLogAnswer>('GET', deliveriesPath(base)));
    } catch (err) {
      setError(errorText(err));
    }
  }, [base]);
  useEffect(() => {
    api<T>('GET', base).then(setItem, (err) => setError(errorText(err)));
    void loadLog();
    const timer = setInterval(() => void loadLog(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [base, loadLog]);
  const redeliver = (a: WebhookAttempt) =>
    void run('Redeliver', async () => {
      await api('POST', `${base}/redeliver`, { body: { eventId: a.event_id } });
      await loadLog();
      return redeliveredNote(a.event_id);
    });
  const replay = (range: { from: string; to: string }) =>
    void run('Replay', async () => {
      const answer = await api<{ scheduled: number }>('POST', `${base}/replay`, { body: range });
      return replayNote(answer.scheduled);
    });
  return { item, setItem, log, error, setError, note, setNote, run, redeliver, replay };
}
