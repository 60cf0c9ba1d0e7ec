import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFsStorage } from '@mapi/storage';
import pino from 'pino';
import * as f from './fixtures/library-events';
import { ReceivedMediaStore, safeFileName } from './received-media';

jest.mock('baileys', () => ({ ...jest.requireActual('baileys'), downloadMediaMessage: jest.fn(async () => Buffer.from('jpeg-bytes')) }));
const { downloadMediaMessage } = require('baileys') as { downloadMediaMessage: jest.Mock };

describe('ReceivedMediaStore', () => {
  const root = mkdtempSync(join(tmpdir(), 'baileys-media-'));
  const storage = new LocalFsStorage(root);
  const org = '5d2c4a0e-8a4f-4b8e-9a51-0f6f2b1c3d4e';
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('stores the file under message-media/<org>/<chat>/<id>/ and answers the service link (no token)', async () => {
    const store = new ReceivedMediaStore(storage, 'https://api.example.com', 100_000, pino({ level: 'silent' }));
    const result = await store.store(f.imageWithCaption, org, '15550000002@c.us', async (m) => m);
    expect(result).toEqual({
      outcome: 'stored',
      path: `https://api.example.com/app/media/message-media/${org}/15550000002%40c.us/3EB0AAAA0003/3EB0AAAA0003.jpg`,
    });
    expect(await storage.stat({ bucket: 'message-media', name: `${org}/15550000002@c.us/3EB0AAAA0003/3EB0AAAA0003.jpg` })).toMatchObject({
      size: 10,
    });
  });

  it('does not download media above the limit, and hands on an empty path when the download fails', async () => {
    downloadMediaMessage.mockClear();
    const small = new ReceivedMediaStore(storage, 'https://api.example.com', 1_000, pino({ level: 'silent' }));
    expect(await small.store(f.imageWithCaption, org, '15550000002@c.us', async (m) => m)).toEqual({ outcome: 'too-large', path: '' });
    expect(downloadMediaMessage).not.toHaveBeenCalled();
    downloadMediaMessage.mockRejectedValueOnce(new Error('410 gone'));
    const store = new ReceivedMediaStore(storage, 'https://api.example.com', 100_000, pino({ level: 'silent' }));
    expect(await store.store(f.imageWithCaption, org, '15550000002@c.us', async (m) => m)).toEqual({ outcome: 'failed', path: '' });
    expect(await store.store(f.textFromAlice, org, '15550000002@c.us', async (m) => m)).toEqual({ outcome: 'none', path: '' });
  });

  it('file names are one safe segment', () => {
    expect(safeFileName('../a/b.pdf')).toBe('.._a_b.pdf');
    expect(safeFileName('..')).toBe('_');
    expect(safeFileName('')).toBe('file');
  });
});
