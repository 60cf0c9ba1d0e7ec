import { MigrateMediaUrlsBatchResponse, type MigrateMediaUrlsBatchRequest } from '@mapi/contracts';
import type { ObjectKey } from '@mapi/storage';
import { MediaLinkMigrator } from '../../links/media-link-migrator';
import { MediaLinks } from '../../links/media-links';
import type { MediaSettingsRepository } from '../../repositories/media-settings-repository';
import type { PublicObjectRepository } from '../../repositories/public-object-repository';
import { MediaTokenService } from '../../tokens/media-token-service';
import { MigrateMediaUrlsBatch } from './migrate-media-urls-batch.usecase';

const ORG = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';
const OTHER = '9f1e2d3c-4b5a-4c6d-8e7f-a0b1c2d3e4f5';
const LEGACY = 'https://legacy.example.com/storage/v1/object/public';
const links = new MediaLinks({ mediaBaseUrl: 'https://m.example.com', legacyStorageUrl: LEGACY, buckets: ['message-media'] });

function setup() {
  const published: ObjectKey[][] = [];
  let issued = 0;
  const tokens = new MediaTokenService([{ kid: 'k', secret: 'k'.repeat(40) }]);
  const issue = tokens.issue.bind(tokens);
  tokens.issue = (...args) => (issued++, issue(...args));
  const settings = { get: async () => ({ accessDefault: 'private', linkExpirySeconds: 3600 }) } as unknown as MediaSettingsRepository;
  const publicRepo = {
    publish: async (_o: string, keys: readonly ObjectKey[]) => void published.push([...keys]),
  } as unknown as PublicObjectRepository;
  const usecase = new MigrateMediaUrlsBatch(new MediaLinkMigrator(links, settings), tokens, publicRepo);
  const run = (body: MigrateMediaUrlsBatchRequest['body']) =>
    usecase.execute({ ctx: { org_id: ORG, token_id: ORG, phone_scope: null, phone: null }, body });
  return { run, published, issued: () => issued };
}

describe('MigrateMediaUrlsBatch', () => {
  const urls = [
    `${LEGACY}/message-media/${ORG}%2Fa.jpg`,
    `${LEGACY}/message-media/${OTHER}%2Fb.jpg`,
    17,
    `/storage/v1/object/public/message-media/${ORG}/c d.jpg`,
    'x',
  ];

  it('answers each URL at its index, signing one token for all private links', async () => {
    const { run, issued } = setup();
    const res = await run({ urls });
    expect(MigrateMediaUrlsBatchResponse.parse(res)).toEqual(res);
    expect(res).toMatchObject({ migrated_count: 2, failed_count: 3, access: 'private', expires_in_seconds: 3600 });
    expect(res.results.map((r) => [r.index, r.success])).toEqual([
      [0, true],
      [1, false],
      [2, false],
      [3, true],
      [4, false],
    ]);
    expect(res.results[1].error).toBe('This URL belongs to a different organization');
    expect(res.results[2].error).toBe('Not a URL');
    expect(res.results[3].url).toMatch(new RegExp(`/message-media/${ORG}/c%20d\\.jpg\\?jwt=`));
    expect(new URL(res.results[0].url!).searchParams.get('jwt')).toBe(new URL(res.results[3].url!).searchParams.get('jwt'));
    expect(issued()).toBe(1);
    for (const r of res.results)
      expect(Object.keys(r).sort()).toEqual(r.success ? ['index', 'success', 'url'] : ['error', 'index', 'success']);
  });

  it('records every public file in one call and signs nothing', async () => {
    const { run, published, issued } = setup();
    const res = await run({ urls, access: 'public' });
    expect(res).toMatchObject({ access: 'public', migrated_count: 2 });
    expect(res).not.toHaveProperty('expires_in_seconds');
    expect(published).toEqual([
      [
        { bucket: 'message-media', name: `${ORG}/a.jpg` },
        { bucket: 'message-media', name: `${ORG}/c d.jpg` },
      ],
    ]);
    expect(issued()).toBe(0);
  });

  it('signs no token when nothing succeeded', async () => {
    const { run, issued } = setup();
    expect(await run({ urls: ['x'] })).toMatchObject({ migrated_count: 0, failed_count: 1 });
    expect(issued()).toBe(0);
  });

  it('converts a full batch of 1000 URLs, each to its own file (timing: bench/media)', async () => {
    const { run, issued } = setup();
    const many = Array.from({ length: 1000 }, (_, i) => `${LEGACY}/message-media/${ORG}%2Fchat%2Fm${i}%2Ffile%20${i}.jpg`);
    const res = await run({ urls: many });
    expect(res.migrated_count).toBe(1000);
    expect(new Set(res.results.map((r) => r.url!.split('?')[0])).size).toBe(1000);
    expect(res.results[999].url).toMatch(/\/chat\/m999\/file%20999\.jpg\?jwt=/);
    expect(issued()).toBe(1);
  });
});
