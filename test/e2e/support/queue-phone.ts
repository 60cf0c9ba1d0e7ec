import { createOrg, createToken, randomDigits } from '@mapi/testing';
import { client, until } from './http';
import type { Stack } from './stack';

/** Creates a sandbox phone through the API and scans its QR: a connected phone to send through. */
export async function connectedSandboxPhone(api: ReturnType<typeof client>): Promise<{ phoneId: string; number: string }> {
  const created = await api.post('/phones/create', { phone_name: 'Queue' });
  if (created.status !== 201) throw new Error(`create phone: ${created.status} ${JSON.stringify(created.body)}`);
  const phoneId = created.body.phone_id as string;
  await until(
    () => api.get('/phones', { 'x-phone': phoneId }),
    (r) => r.body?.wa_state === 'QR',
    10_000,
    'QR',
  );
  const number = randomDigits();
  await api.post('/sandbox/phones/scan', { number }, { 'x-phone': phoneId });
  await until(
    () => api.get('/phones', { 'x-phone': phoneId }),
    (r) => r.body?.wa_state === 'CONNECTED',
    10_000,
    'connected',
  );
  return { phoneId, number };
}

/** DELETE with a JSON body (the legacy purge), which the small client does not do. */
export async function deleteWithBody(baseUrl: string, token: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}/v1${path}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A new organization of the stack: a client with its token, and a connected sandbox phone. */
export async function orgWithSandboxPhone(
  stack: Pick<Stack, 'prisma' | 'baseUrl'>,
): Promise<{ orgId: string; api: ReturnType<typeof client>; phoneId: string }> {
  const org = await createOrg(stack.prisma);
  const api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
  const { phoneId } = await connectedSandboxPhone(api);
  return { orgId: org.id, api, phoneId };
}
