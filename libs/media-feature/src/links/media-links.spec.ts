import { MediaLinkError, MediaLinks } from './media-links';

const ORG = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';
const links = new MediaLinks({
  mediaBaseUrl: 'https://media.example.com',
  legacyStorageUrl: 'https://legacy.example.supabase.co/storage/v1/object/public',
  buckets: ['message-media', 'kb-attachments'],
});
const LEGACY = 'https://legacy.example.supabase.co/storage/v1/object/public';

const problem = (input: unknown) => {
  try {
    links.parse(input);
  } catch (error) {
    if (error instanceof MediaLinkError) return error.problem;
    throw error;
  }
  return 'parsed';
};

describe('MediaLinks.parse', () => {
  it.each([
    ['legacy bucket form, one encoded name', `${LEGACY}/message-media/${ORG}%2Fchat%2Fa.jpg`, `${ORG}/chat/a.jpg`],
    ['legacy bucket form, plain segments', `${LEGACY}/message-media/${ORG}/chat/a.jpg`, `${ORG}/chat/a.jpg`],
    ['legacy relative path', `/storage/v1/object/public/message-media/${ORG}/1@c.us/true_1_X/a b.jpg`, `${ORG}/1@c.us/true_1_X/a b.jpg`],
    ['service link with token', `https://media.example.com/app/media/message-media/${ORG}/a%20b.jpg?jwt=abc`, `${ORG}/a b.jpg`],
    ['service relative path', `/app/media/message-media/${ORG}/x.png`, `${ORG}/x.png`],
    ['unicode raw', `${LEGACY}/message-media/${ORG}/café ü.png`, `${ORG}/café ü.png`],
    ['unicode encoded', `${LEGACY}/message-media/${ORG}/caf%C3%A9.png`, `${ORG}/café.png`],
    ['double-encoded %2F stays in the name', `${LEGACY}/message-media/${ORG}%2F100%252F.txt`, `${ORG}/100%2F.txt`],
    ['surrounding whitespace', `  ${LEGACY}/message-media/${ORG}/a.jpg\n`, `${ORG}/a.jpg`],
    ['query and fragment ignored', `${LEGACY}/message-media/${ORG}/a.jpg?download=1#x`, `${ORG}/a.jpg`],
  ])('reads %s', (_name, input, name) => {
    expect(links.parse(input)).toEqual({ bucket: 'message-media', name });
  });

  it.each([
    ['a number', 42, 'not-a-url'],
    ['null', null, 'not-a-url'],
    ['blank', '   ', 'not-a-url'],
    ['words', 'hello world', 'not-a-url'],
    ['ftp', `ftp://legacy.example.supabase.co/storage/v1/object/public/message-media/${ORG}/a`, 'not-a-url'],
    ['another host', `https://other.example.com/storage/v1/object/public/message-media/${ORG}/a.jpg`, 'not-a-url'],
    ['another legacy path', `https://legacy.example.supabase.co/storage/v1/object/sign/message-media/${ORG}/a.jpg`, 'not-a-url'],
    ['http instead of https', `http://legacy.example.supabase.co/storage/v1/object/public/message-media/${ORG}/a.jpg`, 'not-a-url'],
    ['bad percent-encoding', `${LEGACY}/message-media/${ORG}/%E0%A4%A.jpg`, 'not-a-url'],
    ['no file', `${LEGACY}/message-media/${ORG}`, 'not-a-url'],
    ['trailing slash', `${LEGACY}/message-media/${ORG}/dir/`, 'not-a-url'],
    ['encoded traversal', `${LEGACY}/message-media/${ORG}%2F..%2Fother%2Fx`, 'not-a-url'],
    ['NUL', `${LEGACY}/message-media/${ORG}/a%00.jpg`, 'not-a-url'],
    ['too long', `${LEGACY}/message-media/${ORG}/${'a'.repeat(9000)}`, 'not-a-url'],
    ['a foreign bucket', `${LEGACY}/avatars/${ORG}/a.jpg`, 'not-a-service-bucket'],
    ['a bucket only', `${LEGACY}/`, 'not-a-service-bucket'],
  ])('refuses %s', (_name, input, expected) => {
    expect(problem(input)).toBe(expected);
  });

  it('resolves dot segments like a browser would, so a traversal cannot leave the prefix unnoticed', () => {
    expect(problem(`${LEGACY}/message-media/../../../etc/passwd`)).toBe('not-a-url');
  });
});

describe('MediaLinks.build', () => {
  it('encodes every segment and appends the token', () => {
    expect(links.build({ bucket: 'message-media', name: `${ORG}/1@c.us/a b/ü%2F#?.jpg` }, 'tok')).toBe(
      `https://media.example.com/app/media/message-media/${ORG}/1%40c.us/a%20b/%C3%BC%252F%23%3F.jpg?jwt=tok`,
    );
  });

  it('builder(token) makes the same links as build(key, token), for every bucket, with and without a token', () => {
    const keys = [
      { bucket: 'message-media', name: `${ORG}/1@c.us/a b/ü%2F#?.jpg` },
      { bucket: 'kb-attachments', name: `${ORG}/x.pdf` },
      { bucket: 'not-ours', name: `${ORG}/y.pdf` },
    ];
    for (const token of ['tok', undefined]) {
      const link = links.builder(token);
      for (const key of keys) expect(link(key)).toBe(links.build(key, token));
    }
    expect(links.builder('t')(keys[0])).toBe(
      `https://media.example.com/app/media/message-media/${ORG}/1%40c.us/a%20b/%C3%BC%252F%23%3F.jpg?jwt=t`,
    );
  });

  it('round-trips: parsing a built link gives back the key', () => {
    const key = { bucket: 'kb-attachments', name: `${ORG}/naïve café/100% & more?.pdf` };
    expect(links.parse(links.build(key, 'x'))).toEqual(key);
  });

  it('keeps the path of a base URL that has one', () => {
    const nested = new MediaLinks({ mediaBaseUrl: 'https://cdn.example.com/files', legacyStorageUrl: LEGACY, buckets: ['b1'] });
    const link = nested.build({ bucket: 'b1', name: `${ORG}/a.jpg` });
    expect(link).toBe(`https://cdn.example.com/files/app/media/b1/${ORG}/a.jpg`);
    expect(nested.keyFromServedPath(`/files/app/media/b1/${ORG}/a.jpg`)).toEqual({ bucket: 'b1', name: `${ORG}/a.jpg` });
    expect(nested.keyFromServedPath(`/app/media/b1/${ORG}/a.jpg`)).toBeNull();
  });
});

describe('MediaLinks.keyFromServedPath', () => {
  it('decodes the raw request path, and answers null for anything that names no file', () => {
    expect(links.keyFromServedPath(`/app/media/message-media/${ORG}/a%20b.jpg`)).toEqual({
      bucket: 'message-media',
      name: `${ORG}/a b.jpg`,
    });
    expect(links.keyFromServedPath(`/app/media/message-media/${ORG}/..%2F..%2Fx`)).toBeNull();
    expect(links.keyFromServedPath(`/app/media/other/${ORG}/a.jpg`)).toBeNull();
    expect(links.keyFromServedPath('/app/media/message-media/%ZZ/a')).toBeNull();
    expect(links.keyFromServedPath('/health/live')).toBeNull();
  });
});
