import { randomDigits, type FakeGraphApi } from '@mapi/testing';
import { cloudApiNumber, connectedCloudApiPhone, startCloudApiWorld, type CloudApiWorld } from './support/cloud-api';
import { until, type client } from './support/http';
import { connectedSandboxPhone } from './support/queue-phone';

/** A finished job as GET /queue/broadcast lists it (both times set). */
type Job = { id: string; status: string; processedTimestamp: number; finishedTimestamp: number; data: { chat_id: string } };

/**
 * The send queue paces each phone by its connector (the queue asks the phones service once per phone):
 * a Cloud API number at CLOUD_API_SEND_RATE_PER_S (80, the default) without jitter, while a sandbox
 * phone of the same stack keeps the linked-device interval (QUEUE_SEND_INTERVAL_MS, 500 ms here).
 */
describe('Cloud API phone: its own send pace', () => {
  let w: CloudApiWorld;
  let graph: FakeGraphApi;
  let api: ReturnType<typeof client>;
  let cloudPhone: string;
  let sandboxPhone: string;
  const { number, creds } = cloudApiNumber();
  const INTERVAL_MS = 500;

  beforeAll(async () => {
    w = await startCloudApiWorld({ number, creds }, { QUEUE_SEND_INTERVAL_MS: String(INTERVAL_MS), QUEUE_SEND_JITTER_MS: '0' }, [
      'phones',
      'queue',
    ]);
    ({ graph, api } = w);
    cloudPhone = await connectedCloudApiPhone(api, creds);
    ({ phoneId: sandboxPhone } = await connectedSandboxPhone(api));
  }, 120_000);

  afterAll(() => w?.stop());

  const broadcast = async (phoneId: string, chatIds: string[]) => {
    const r = await api.post('/message/broadcast', { chat_ids: chatIds, message: 'Our opening hours changed' }, { 'x-phone': phoneId });
    expect(r.status).toBe(200);
    return r.body.broadcast_id as string;
  };
  const finishedJobs = async (phoneId: string, broadcastId: string, n: number, ms: number): Promise<Job[]> => {
    const r = await until(
      () => api.get(`/queue/broadcast?broadcast_id=${broadcastId}`, { 'x-phone': phoneId }),
      (x) => x.body?.completed === n,
      ms,
      `${n} sends of ${phoneId}`,
    );
    return (r.body.jobs as Job[]).sort((a, b) => a.processedTimestamp - b.processedTimestamp);
  };

  it('sends 200 messages of a Cloud API phone at well above 1/s, each once at Meta, while a sandbox phone stays paced', async () => {
    const customers = Array.from({ length: 200 }, () => randomDigits());
    const [cloudRun, sandboxRun] = await Promise.all([
      broadcast(cloudPhone, customers),
      broadcast(
        sandboxPhone,
        Array.from({ length: 4 }, () => randomDigits()),
      ),
    ]);
    const cloudJobs = await finishedJobs(cloudPhone, cloudRun, 200, 60_000);
    const seconds = (cloudJobs[199].finishedTimestamp - cloudJobs[0].processedTimestamp) / 1000;
    // 80/s asked: "well above 1/s" holds on a loaded machine too; the linked-device pace would take 100 s
    expect(200 / seconds).toBeGreaterThan(10);
    const atMeta = new Map<string, number>();
    for (const a of graph.accepted) atMeta.set(String(a.body.to), (atMeta.get(String(a.body.to)) ?? 0) + 1);
    expect(customers.map((c) => atMeta.get(c))).toEqual(customers.map(() => 1));

    const sandboxJobs = await finishedJobs(sandboxPhone, sandboxRun, 4, 30_000);
    for (let i = 1; i < sandboxJobs.length; i++)
      expect(sandboxJobs[i].processedTimestamp - sandboxJobs[i - 1].processedTimestamp).toBeGreaterThanOrEqual(INTERVAL_MS - 50);
  }, 120_000);
});
