import { PeriskopeApi } from '@periskope/periskope-client';
import createClient from 'openapi-fetch';

/**
 * The public client, unchanged, pointed at a stack on another port: its API objects read
 * `this.apiClient`, which is swapped for one made the way its constructor makes it (openapi-fetch)
 * with our base URL (env 'local' fixes http://localhost:8080/v1).
 */
export function publicClientAt(baseUrl: string, token: string): PeriskopeApi {
  const api = new PeriskopeApi({ authToken: token, phone: '', env: 'local' });
  const fetchClient = createClient({ baseUrl: `${baseUrl}/v1`, headers: { Authorization: `Bearer ${token}` } });
  for (const value of Object.values(api as unknown as Record<string, unknown>)) {
    if (value && typeof value === 'object' && 'apiClient' in value) (value as { apiClient: unknown }).apiClient = fetchClient;
  }
  return api;
}

/** The data of a public-client answer, failing the test with its error otherwise. */
export function dataOf<T>(answer: { data?: T; error?: unknown; status?: number }, what: string): T {
  if (answer.error || answer.data === undefined) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.error)}`);
  return answer.data;
}
