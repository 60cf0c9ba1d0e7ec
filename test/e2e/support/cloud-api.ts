import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOrg, createToken, randomDigits, startFakeGraphApi, type FakeGraphApi } from '@mapi/testing';
import { client, until } from './http';
import { startStack, type Stack } from './stack';

/** A Cloud API number as Meta knows it, and the credentials a phone of it is created with. */
export function cloudApiNumber() {
  const number = { phone_number_id: randomDigits(), display_phone_number: '15550100000', waba_id: randomDigits() };
  const creds = {
    phone_number_id: number.phone_number_id,
    waba_id: number.waba_id,
    access_token: `EAAG${randomBytes(24).toString('hex')}`,
    app_secret: randomBytes(16).toString('hex'),
    verify_token: `verify-${randomBytes(6).toString('hex')}`,
  };
  return { number, creds };
}

export interface CloudApiWorld {
  stack: Stack;
  graph: FakeGraphApi;
  /** An organization's client, and another organization's. */
  api: ReturnType<typeof client>;
  other: ReturnType<typeof client>;
  mediaRoot: string;
  stop(): Promise<void>;
}

/**
 * The Cloud API e2e specs' world: the fake Graph API knowing `number` (with its token), the stack
 * (gateway, chats and `services`) pointed at it with a fast queue, and two organizations' clients.
 */
export async function startCloudApiWorld(
  { number, creds }: ReturnType<typeof cloudApiNumber>,
  env: Record<string, string> = {},
  services = ['phones', 'queue', 'groups', 'automation'],
): Promise<CloudApiWorld> {
  const graph = await startFakeGraphApi();
  const mediaRoot = await mkdtemp(join(tmpdir(), 'cloud-api-e2e-'));
  graph.numbers.set(number.phone_number_id, { token: creds.access_token, display_phone_number: '+1 555-010-0000', verified_name: 'Acme' });
  const stack = await startStack(
    {
      SESSION_SCAN_MS: '200',
      QUEUE_SEND_INTERVAL_MS: '20',
      QUEUE_SEND_JITTER_MS: '10',
      QUEUE_PHONE_SCAN_MS: '200',
      QUEUE_RETRY_BACKOFF_MS: '200',
      CLOUD_API_SECRETS_KEY: randomBytes(32).toString('base64'),
      CLOUD_API_GRAPH_URL: graph.graphUrl,
      CLOUD_API_MEDIA_POLL_MS: '200',
      MEDIA_STORAGE_ROOT: mediaRoot,
      ...env,
    },
    { services },
  );
  const org = await createOrg(stack.prisma);
  const api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
  const other = client(stack.baseUrl, (await createToken(stack.prisma, (await createOrg(stack.prisma)).id)).token);
  return {
    stack,
    graph,
    api,
    other,
    mediaRoot,
    stop: async () => {
      await stack.stop();
      await graph.stop();
      await rm(mediaRoot, { recursive: true, force: true });
    },
  };
}

/** A Cloud API phone created with `creds`, once CONNECTED: its phone_id. */
export async function connectedCloudApiPhone(api: ReturnType<typeof client>, creds: ReturnType<typeof cloudApiNumber>['creds']) {
  const created = await api.post('/phones/create', { phone_name: 'Support line', cloud_api: creds });
  if (created.status !== 201) throw new Error(`Cloud API phone not created: ${created.status} ${JSON.stringify(created.body)}`);
  const phoneId: string = created.body.phone_id;
  await until(
    () => api.get('/phones', { 'x-phone': phoneId }),
    (r) => r.body?.wa_state === 'CONNECTED',
    15_000,
    'Cloud API phone connected',
  );
  return phoneId;
}
