import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MediaSchema, sendUniqueId, type IngestMessage } from '@mapi/contracts';
import { createStorage } from '@mapi/storage';
import { randomSuffix, testEnv, useTestDatabase } from '@mapi/testing';
import { connect, type NatsConnection } from 'nats';
import { SendRefused } from '../cloud-api/graph-errors';
import { SandboxConnector } from './sandbox-connector';
import { SandboxNetwork } from './sandbox-network';

/**
 * A file a sandbox phone sends (media.filedata), in real Postgres, NATS and the local media storage: written
 * where received media go (message-media/<org_id>/<chat_id>/<unique_id>/<file>) and handed on with `media`
 * whose path is the media service's link, as a Baileys phone's echo is stored; the history keeps it.
 */
describe('SandboxConnector sent media (integration)', () => {
  const t = useTestDatabase('phones_sandbox_media');
  const phoneId = `phone-media${randomSuffix(6)}`;
  const orgId = randomUUID();
  const chat = '15550007777@c.us';
  const base = 'http://media.test:8090';
  const root = mkdtempSync(join(tmpdir(), 'sandbox-media-'));
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108020000009077', 'hex');
  let nc: NatsConnection;
  let network: SandboxNetwork;
  const upserts: IngestMessage[] = [];
  const connectors: SandboxConnector[] = [];

  const connector = async (id: string, media: ConstructorParameters<typeof SandboxConnector>[6]) => {
    await network.ensureDevice(id, orgId);
    await network.setDevice(id, { state: 'CONNECTED', number: '15550006666' });
    const c = new SandboxConnector(id, orgId, network, nc, `media-${randomSuffix()}`, 60_000, media);
    c.on('messages.upsert', async ({ messages }) => void upserts.push(...messages));
    await c.connect();
    connectors.push(c);
    return c;
  };

  beforeAll(async () => {
    nc = await connect({ servers: testEnv.natsUrl() });
    network = new SandboxNetwork(t.prisma);
  });
  afterAll(async () => {
    for (const c of connectors) await c.disconnect();
    await nc.close();
    rmSync(root, { recursive: true, force: true });
  });

  const settings = { storage: createStorage({ backend: 'local', root }), mediaBaseUrl: base, maxBytes: 1024 };

  it('stores a sent file in the media storage and hands the message on with its media link; a retry stores nothing twice', async () => {
    const phone = await connector(phoneId, settings);
    const sendId = randomUUID();
    const content = {
      text: 'Photo of the return label',
      media: { type: 'image', filename: 'label #1.png', mimetype: 'image/png', filedata: PNG.toString('base64') },
    };
    const sent = await phone.sendMessage(chat, content, sendId);
    await phone.sync();
    const uniqueId = sendUniqueId(phoneId, sendId);
    const name = `${orgId}/${chat}/${uniqueId}/label #1.png`;
    const media = {
      dimensions: { ar: 1, height: 1, width: 1 },
      filename: 'label #1.png',
      mimetype: 'image/png',
      path: `${base}/app/media/message-media/${orgId}/${encodeURIComponent(chat)}/${uniqueId}/label%20%231.png`,
      size: PNG.length,
      thumbnail: '',
    };
    const handed = upserts.filter((m) => m.unique_id === sent.unique_id);
    expect(handed).toEqual([expect.objectContaining({ message_type: 'image', body: 'Photo of the return label', from_me: true, media })]);
    expect(MediaSchema.safeParse(handed[0].media).success).toBe(true);
    expect(readFileSync(join(root, 'message-media', name))).toEqual(PNG);
    expect((await settings.storage.stat({ bucket: 'message-media', name }))?.size).toBe(PNG.length);
    // The retried send is the same message; the history keeps the media. A data: URL is taken as its base64 part.
    expect(await phone.sendMessage(chat, content, sendId)).toMatchObject({ unique_id: sent.unique_id, duplicate: true });
    expect((await phone.fetchMessageHistory(chat, 5)).find((m) => m.unique_id === sent.unique_id)?.media).toEqual(media);
    const doc = await phone.sendMessage(
      chat,
      {
        media: {
          filename: 'invoice.pdf',
          mimetype: 'application/pdf',
          filedata: `data:application/pdf;base64,${Buffer.from('%PDF-1.4').toString('base64')}`,
        },
      },
      randomUUID(),
    );
    await phone.sync();
    expect(upserts.find((m) => m.unique_id === doc.unique_id)).toMatchObject({
      message_type: 'document',
      body: null,
      media: { filename: 'invoice.pdf', mimetype: 'application/pdf', size: 8 },
    });
  });

  it('refuses for good a file that is empty, not base64 or too large, storing nothing; a file by url or without storage has no media', async () => {
    const phone = await connector(`${phoneId}-b`, settings);
    for (const filedata of ['', '!!!', Buffer.alloc(2048).toString('base64')]) {
      const send = phone.sendMessage(chat, { media: { filename: 'x.png', mimetype: 'image/png', filedata } }, randomUUID());
      if (filedata === '') {
        // empty filedata is no file: as a file by url, nothing is stored
        expect((await send).duplicate).toBe(false);
        continue;
      }
      await expect(send).rejects.toBeInstanceOf(SendRefused);
    }
    const byUrl = await phone.sendMessage(
      chat,
      { media: { url: 'https://files.example/x.png', filename: 'x.png', mimetype: 'image/png' } },
      randomUUID(),
    );
    const bare = await connector(`${phoneId}-c`, null);
    const unstored = await bare.sendMessage(
      chat,
      { media: { filename: 'y.png', mimetype: 'image/png', filedata: PNG.toString('base64') } },
      randomUUID(),
    );
    await Promise.all([phone.sync(), bare.sync()]);
    for (const id of [byUrl.unique_id, unstored.unique_id]) {
      const m = upserts.find((u) => u.unique_id === id);
      expect(m).toMatchObject({ message_type: 'image' });
      expect(m?.media ?? null).toBeNull();
    }
    // Only the two files of the first test were written (the refused ones, the one by url and the one without storage were not).
    const stored = (await settings.storage.list('message-media', orgId)).objects.map((o) => o.key.name.split('/').pop());
    expect(stored.sort()).toEqual(['invoice.pdf', 'label #1.png']);
  });
});
