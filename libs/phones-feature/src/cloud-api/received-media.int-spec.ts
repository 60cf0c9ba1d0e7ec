import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IngestMessageSchema, type IngestMessage } from '@mapi/contracts';
import { createStorage } from '@mapi/storage';
import { startFakeGraphApi, useTestDatabase, type FakeGraphApi } from '@mapi/testing';
import pino from 'pino';
import { GraphClient } from './graph-client';
import { MEDIA_ATTEMPTS, ReceivedMediaQueue } from './received-media';

const t = useTestDatabase('cloud_api_media');
const logger = pino({ level: 'silent' });
const ORG = '6f1c1e1e-0000-4000-8000-000000000035';

describe('ReceivedMediaQueue (received files fetched from the Graph API into the media storage)', () => {
  let graph: FakeGraphApi;
  let root: string;
  beforeAll(async () => {
    graph = await startFakeGraphApi();
    root = await mkdtemp(join(tmpdir(), 'cloud-api-media-'));
  });
  afterAll(async () => {
    await graph.stop();
    await rm(root, { recursive: true, force: true });
  });

  const message = (wamid: string): IngestMessage => ({
    chat_id: '16505551234@c.us',
    unique_id: wamid,
    from_me: false,
    sender_phone: '16505551234@c.us',
    body: 'a photo',
    message_type: 'image',
    timestamp: new Date().toISOString(),
    ack: 1,
  });
  const queue = () =>
    new ReceivedMediaQueue(
      t.prisma,
      { storage: createStorage({ backend: 'local', root }), mediaBaseUrl: 'http://media.test', maxBytes: 1024 },
      new GraphClient(graph.graphUrl, 2_000),
      logger,
    );
  const phone = { phone_id: 'phone-cloudmedia1', org_id: ORG, access_token: 'token-1' };

  it("fetches the file with the phone's token, stores it, and hands the message on with its link, once", async () => {
    graph.media.set('m-1', { mime_type: 'image/jpeg', bytes: Buffer.from('jpeg bytes') });
    const q = queue();
    const msg = message('wamid.A_b-1');
    const media = { wamid: msg.unique_id, media_id: 'm-1', mime_type: 'image/jpeg', sha256: null, filename: null };
    await q.hold(phone.phone_id, media, msg);
    await q.hold(phone.phone_id, media, msg); // Meta's retry
    const handed: IngestMessage[] = [];
    expect(await q.drain(phone, async (m) => void handed.push(m))).toBe(1);
    expect(handed).toHaveLength(1);
    expect(IngestMessageSchema.safeParse(handed[0]).success).toBe(true);
    const path = `http://media.test/app/media/message-media/${ORG}/16505551234%40c.us/wamid.A_b-1/m-1`;
    expect(handed[0].media).toMatchObject({ path, mimetype: 'image/jpeg', size: 10, filename: 'm-1.jpeg' });
    expect(await readFile(join(root, 'message-media', ORG, '16505551234@c.us', 'wamid.A_b-1', 'm-1'), 'utf8')).toBe('jpeg bytes');
    expect(graph.requests.filter((r) => r.path === '/m-1' || r.path === '/media-file/m-1').map((r) => r.authorization)).toEqual([
      'Bearer token-1',
      'Bearer token-1',
    ]);
    expect(await q.drain(phone, async (m) => void handed.push(m))).toBe(0);
  });

  it(`tries a file that cannot be fetched again, and after ${MEDIA_ATTEMPTS} attempts hands the message on without it`, async () => {
    const q = queue();
    const msg = message('wamid.missing');
    await q.hold(
      phone.phone_id,
      { wamid: msg.unique_id, media_id: 'm-unknown', mime_type: 'image/png', sha256: null, filename: null },
      msg,
    );
    graph.media.set('m-big', { mime_type: 'video/mp4', bytes: Buffer.alloc(2048) });
    const big = message('wamid.big');
    await q.hold(
      phone.phone_id,
      { wamid: big.unique_id, media_id: 'm-big', mime_type: 'video/mp4', sha256: null, filename: 'clip.mp4' },
      big,
    );
    const handed: IngestMessage[] = [];
    for (let i = 1; i < MEDIA_ATTEMPTS; i++) expect(await q.drain(phone, async (m) => void handed.push(m))).toBe(0);
    expect(await q.drain(phone, async (m) => void handed.push(m))).toBe(2);
    expect(handed.map((m) => [m.unique_id, m.media?.path, m.media?.filename])).toEqual([
      ['wamid.missing', '', 'm-unknown.png'],
      ['wamid.big', '', 'clip.mp4'],
    ]);
  });

  it('hands nothing on when the publication fails: the message stays pending for the next round', async () => {
    graph.media.set('m-2', { mime_type: 'image/jpeg', bytes: Buffer.from('x') });
    const q = queue();
    const msg = message('wamid.retry');
    await q.hold(phone.phone_id, { wamid: msg.unique_id, media_id: 'm-2', mime_type: 'image/jpeg', sha256: null, filename: null }, msg);
    await expect(q.drain(phone, () => Promise.reject(new Error('stream away')))).rejects.toThrow('stream away');
    const handed: IngestMessage[] = [];
    expect(await q.drain(phone, async (m) => void handed.push(m))).toBe(1);
    expect(handed[0].unique_id).toBe('wamid.retry');
  });
});
