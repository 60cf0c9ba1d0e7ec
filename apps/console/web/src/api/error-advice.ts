/**
 * What the person can do about a refused or failed call, by its HTTP status and the API's error
 * code: the page shows the API's message followed by this (client.ts errorText). Free of the DOM.
 */
export function adviceFor(status: number, code = ''): string | null {
  if (status === 0) return null; // the network error's own text already says to check the connection
  if (status === 401) return 'Sign in again, or ask an admin for access to this phone.';
  if (status === 403) return 'Your role does not allow this; ask an owner or admin of the organization.';
  if (status === 404) return 'It may have been deleted or be outside your reach; reload the page.';
  if (status === 409) return 'It changed meanwhile; reload the page and try again.';
  if (status === 413 || code === 'PAYLOAD_TOO_LARGE_ERROR') return 'Send something smaller (a smaller file).';
  if (status === 422 || code === 'VALIDATION_ERROR') return 'Correct what is named above and try again.';
  if (status === 429) return 'Wait a few seconds and try again.';
  if (status === 502)
    return 'The console cannot reach the API gateway; retry in a moment, and if it lasts check that the gateway is running.';
  if (status === 503 || code === 'SERVICE_UNAVAILABLE_ERROR')
    return 'The service behind this page is not running or is restarting; retry in a moment, and if it lasts ask whoever runs the server to start it.';
  if (status === 504 || code === 'TIMEOUT_ERROR') return 'The service took too long to answer; retry in a moment.';
  if (status >= 500) return 'Retry in a moment; if it happens again, give the error id to whoever runs the server.';
  return null;
}

/** The API's message, its field messages (a 422's), and what to do: one sentence each. */
export function withAdvice(message: string, status: number, code = '', fields?: Record<string, { message: string }>): string {
  const parts = [message.trim().replace(/[.\s]+$/, '')];
  const named = fields ? Object.entries(fields).map(([field, f]) => `${field}: ${f.message}`) : [];
  if (named.length) parts.push(named.join('; '));
  const advice = adviceFor(status, code);
  if (advice) parts.push(advice.replace(/\.$/, ''));
  return `${parts.join('. ')}.`;
}
