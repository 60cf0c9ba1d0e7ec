import type { WebhookAttempt } from '../../api/types';

/**
 * The delivery log's logic, free of the DOM, shared by the webhook and event-sink pages: the log's
 * columns and row keys, the notes after a redelivery or a replay, and the replay window from the form.
 */

/** GET …/deliveries as both the webhook and the event-sink routes answer it. */
export interface DeliveryLogAnswer {
  count: number;
  attempts: WebhookAttempt[];
}

/** The log's columns: a Response column only where the receiver answers with a body (webhooks, not brokers). */
export const logColumns = (withResponse: boolean): string[] => [
  'When',
  'Event',
  'Attempt',
  'Outcome',
  'Time',
  ...(withResponse ? ['Response'] : []),
  'Redeliver',
];

/** A row's key: one attempt of one event at one time (a redelivery is a new attempt of the same event). */
export const attemptKey = (a: Pick<WebhookAttempt, 'event_id' | 'attempt' | 'attempted_at'>): string =>
  `${a.event_id}/${a.attempt}/${a.attempted_at}`;

/** The newest attempts of a subscription or sink at `base` (`/webhooks/{id}`, `/event-sinks/{id}`). */
export const deliveriesPath = (base: string, limit = 100): string => `${base}/deliveries?limit=${limit}`;

export const redeliveredNote = (eventId: string): string => `Event ${eventId} scheduled again.`;

export const replayNote = (scheduled: number): string => `Replay: ${scheduled} event(s) scheduled.`;

/**
 * The replay window from two `datetime-local` values (the reader's local time) as ISO 8601 instants;
 * an error message when either is missing or the window is empty.
 */
export function replayWindow(fromLocal: string, toLocal: string): { from: string; to: string } | { error: string } {
  const from = new Date(fromLocal);
  const to = new Date(toLocal);
  if (!fromLocal || !toLocal || Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()))
    return { error: 'Give both the start and the end of the window.' };
  if (from >= to) return { error: 'The start must be before the end.' };
  return { from: from.toISOString(), to: to.toISOString() };
}
