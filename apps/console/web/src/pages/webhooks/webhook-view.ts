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
