import { HttpReply, MigrateMediaUrlResponse, ServiceError, type MigrateMediaUrlRequest } from '@mapi/contracts';
import type { ObjectKey } from '@mapi/storage';
import { MediaLinkMigrator } from '../../links/media-link-migrator';
import { MediaLinks } from '../../links/media-links';
import type { MediaSettings, MediaSettingsRepository } from '../../repositories/media-settings-repository';
import type { PublicObjectRepository } from '../../repositories/public-object-repository';
import { MediaTokenService } from '../../tokens/media-token-service';
import { MigrateMediaUrl } from './migrate-media-url.usecase';

const ORG = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';
const OTHER = '9f1e2d3c-4b5a-4c6d-8e7f-a0b1c2d3e4f5';
const LEGACY = 'https://legacy.example.com/storage/v1/object/public';
const links = new MediaLinks({ mediaBaseUrl: 'https://m.example.com', legacyStorageUrl: LEGACY, buckets: ['message-media'] });
const tokens = new MediaTokenService([{ kid: 'k', secret: 'k'.repeat(40) }]);

function setup(settings: MediaSettings = { accessDefault: 'private', linkExpirySeconds: 86_400 }) {
  const published: { orgId: string; keys: readonly ObjectKey[] }[] = [];
  const settingsReads: string[] = [];
  const settingsRepo = { get: async (orgId: string) => (settingsReads.push(orgId), settings) } as unknown as MediaSettingsRepository;
  const publicRepo = {
    publish: async (orgId: string, keys: readonly ObjectKey[]) => void published.push({ orgId, keys }),
  } as unknown as PublicObjectRepository;
  const usecase = new MigrateMediaUrl(new MediaLinkMigrator(links, settingsRepo), tokens, publicRepo);
  const run = (body: MigrateMediaUrlRequest['body'], orgId = ORG) =>
    usecase.execute({ ctx: { org_id: orgId, token_id: ORG, phone_scope: null, phone: null }, body });
  return { run, published, settingsReads };
}

const legacy = (org = ORG, file = 'a%20b.jpg') => `${LEGACY}/message-media/${org}%2F${file}`;

describe('MigrateMediaUrl', () => {
  it('makes a private link by default, with the organization expiry and a token of the organization', async () => {
    const { run, published } = setup();
    const res = (await run({ url: legacy() })) as MigrateMediaUrlResponse;
    expect(MigrateMediaUrlResponse.parse(res)).toEqual(res);
    expect(res).toMatchObject({ access: 'private', expires_in_seconds: 86_400 });
    expect(res.url).toMatch(
      new RegExp(`^https://m\\.example\\.com/app/media/message-media/${ORG}/a%20b\\.jpg\\?jwt=[\\w-]+\\.[\\w-]+\\.[\\w-]+$`),
    );
    const grant = await tokens.verify(new URL(res.url).searchParams.get('jwt')!);
    expect(grant.orgId).toBe(ORG);
    expect(published).toEqual([]);
  });

  it('records a public file and answers a bare link', async () => {
    const { run, published } = setup();
    expect(await run({ url: legacy(), access: 'public' })).toEqual({
      url: `https://m.example.com/app/media/message-media/${ORG}/a%20b.jpg`,
      access: 'public',
    });
    expect(published).toEqual([{ orgId: ORG, keys: [{ bucket: 'message-media', name: `${ORG}/a b.jpg` }] }]);
  });

  it("uses the organization's public default and expiry", async () => {
    expect(await setup({ accessDefault: 'public', linkExpirySeconds: 60 }).run({ url: legacy() })).toMatchObject({ access: 'public' });
    expect(await setup({ accessDefault: 'public', linkExpirySeconds: 120 }).run({ url: legacy(), access: 'private' })).toMatchObject({
      expires_in_seconds: 120,
    });
    expect(await setup({ accessDefault: 'private', linkExpirySeconds: 10_000_000 }).run({ url: legacy() })).toMatchObject({
      expires_in_seconds: 604_800,
    });
  });

  it('does not read the settings when the request says everything', async () => {
    const { run, settingsReads } = setup();
    await run({ url: legacy(), access: 'private', expires_in_seconds: 300 });
    expect(settingsReads).toEqual([]);
  });

  it('refuses an expiry when the default makes the link public (422 envelope)', async () => {
    const error = await setup({ accessDefault: 'public', linkExpirySeconds: 60 })
      .run({ url: legacy(), expires_in_seconds: 300 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error.toEnvelope()).toMatchObject({
      status: 422,
      fields: { 'body.expires_in_seconds': { message: 'expires_in_seconds is only valid with private access' } },
    });
  });

  it.each([
    ['another organization', legacy(OTHER), 403, 'This URL belongs to a different organization'],
    ['a foreign bucket', `${LEGACY}/avatars/${ORG}%2Fa.jpg`, 422, 'Bucket "avatars" is not a media bucket of this service'],
    ['not a URL', 'nope', 422, 'Not a URL'],
  ])('answers %s with HttpReply(%s, { error })', async (_name, url, status, error) => {
    const { run, published } = setup();
    const res = await run({ url, access: 'public' });
    expect(res).toBeInstanceOf(HttpReply);
    expect(res).toEqual(new HttpReply(status, { error }));
    expect(published).toEqual([]);
  });
});
