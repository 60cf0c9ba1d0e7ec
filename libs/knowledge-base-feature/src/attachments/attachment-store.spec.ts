import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFsStorage } from '@mapi/storage';
import { MediaAttachmentStore, safeFileName } from './attachment-store';

describe('MediaAttachmentStore (media storage, local backend)', () => {
  let root: string;
  let store: MediaAttachmentStore;
  const org = randomUUID();
  const other = randomUUID();
  const MEDIA = 'http://media.example.test/base';

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kb-store-'));
    store = new MediaAttachmentStore(new LocalFsStorage(root), `${MEDIA}/`);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('stores an attachment under kb-attachments/<org_id>/<id>/<file> and links it as a service media link', async () => {
    const link = await store.put('attachment', org, 'refund policy ü.pdf', Buffer.from('%PDF'), 'application/pdf');
    const m = new RegExp(`^${MEDIA}/app/media/kb-attachments/${org}/([0-9a-f-]{36})/refund%20policy%20%C3%BC\\.pdf$`).exec(link.url);
    expect(m).not.toBeNull();
    expect(link).toMatchObject({ type: 'application/pdf', name: 'refund policy ü.pdf' });
    expect(readFileSync(join(root, 'kb-attachments', org, m![1], 'refund policy ü.pdf')).toString()).toBe('%PDF');
    expect(store.keyOf(link.url)).toEqual({ bucket: 'kb-attachments', name: `${org}/${m![1]}/refund policy ü.pdf` });
  });

  it('stores a document under kb-attachments/<org_id>/documents/<document_id>/<file>', async () => {
    const documentId = randomUUID();
    const link = await store.put('document', org, 'guide.md', Buffer.from('# Guide'), 'text/markdown', documentId);
    expect(link.url).toBe(`${MEDIA}/app/media/kb-attachments/${org}/documents/${documentId}/guide.md`);
    expect(existsSync(join(root, 'kb-attachments', org, 'documents', documentId, 'guide.md'))).toBe(true);
  });

  it('removes only its own links of the organization', async () => {
    const mine = await store.put('attachment', org, 'a.txt', Buffer.from('a'), 'text/plain');
    const theirs = await store.put('attachment', other, 'b.txt', Buffer.from('b'), 'text/plain');
    await store.removeLinks(org, [theirs, { url: 'https://cdn.example.com/a.txt', type: 'text/plain', name: 'a.txt' }]);
    expect(existsSync(join(root, 'kb-attachments', other, store.keyOf(theirs.url)!.name.split('/')[1], 'b.txt'))).toBe(true);
    await store.removeLinks(org, [mine]);
    expect(existsSync(join(root, 'kb-attachments', ...store.keyOf(mine.url)!.name.split('/')))).toBe(false);
  });

  it('refuses links that are not of its shape', () => {
    expect(store.keyOf(`${MEDIA}/app/media/message-media/${org}/${randomUUID()}/a.txt`)).toBeNull();
    expect(store.keyOf(`${MEDIA}/app/media/kb-attachments/${org}/not-an-id/a.txt`)).toBeNull();
    expect(store.keyOf(`${MEDIA}/app/media/kb-attachments/${org}/${randomUUID()}/..`)).toBeNull();
    expect(store.keyOf(`${MEDIA}/app/media/kb-attachments/${org}/${randomUUID()}/%E0%A4%A`)).toBeNull();
  });

  it('makes file names safe key segments', () => {
    expect(safeFileName('../etc/passwd')).toBe('.._etc_passwd');
    expect(safeFileName('..')).toBe('_');
    expect(safeFileName('   ')).toBe('file');
    expect(Buffer.byteLength(safeFileName('ü'.repeat(200)))).toBeLessThanOrEqual(255);
  });
});
