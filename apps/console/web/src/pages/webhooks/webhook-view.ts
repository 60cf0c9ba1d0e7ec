import type { WebhookAttempt, WebhookSubscription } from '../../api/types';

/** An attempt's outcome as the log shows it: the HTTP status, or why there was none. */
export const outcome = (a: Pick<WebhookAttempt, 'success' | 'status_code' | 'error'>): string =>
  a.status_code !== null ? `${a.success ? 'delivered' : 'failed'} · HTTP ${a.status_code}` : `failed · ${a.error ?? 'no answer'}`;

/** The subscription's display name: its metadata name, unless that is only the URL again. */
export const subscriptionName = (s: Pick<WebhookSubscription, 'integration_metadata' | 'hook_url'>): string =>
  s.integration_metadata?.name || s.hook_url;

/** The changed fields of an edit, as PATCH /v1/webhooks/{id} takes them (camelCase); null when nothing changed. */
export function editBody(
  before: Pick<WebhookSubscription, 'hook_url' | 'integration_name' | 'integration_metadata'>,
  after: { hookUrl: string; integrationName: string; name: string },
): Record<string, string> | null {
  const body: Record<string, string> = {};
  if (after.hookUrl.trim() !== before.hook_url) body.hookUrl = after.hookUrl.trim();
  if (after.integrationName !== before.integration_name) body.integrationName = after.integrationName;
  const name = after.name.trim();
  if (name && name !== before.integration_metadata?.name) body.name = name;
  return Object.keys(body).length ? body : null;
}

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
