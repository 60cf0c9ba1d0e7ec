import {
  InvalidObjectKeyError,
  assertObjectKey,
  formatObjectKey,
  nameProblem,
  ownerOf,
  parseObjectKey,
  segmentProblem,
} from './object-key';

const ORG = '5b0c3f0e-4a47-4c5e-9a57-1f5f0d7a0c11';

describe('object keys', () => {
  it('parse, format and name the owner', () => {
    const key = parseObjectKey(`message-media/${ORG}/chat/a b ü.jpg`);
    expect(key).toEqual({ bucket: 'message-media', name: `${ORG}/chat/a b ü.jpg` });
    expect(ownerOf(key)).toBe(ORG);
    expect(formatObjectKey(key)).toBe(`message-media/${ORG}/chat/a b ü.jpg`);
  });

  it.each([
    ['no name', 'message-media'],
    ['no file after the owner', `message-media/${ORG}`],
    ['an empty segment', `message-media/${ORG}//a.jpg`],
    ['a dot-dot segment', `message-media/${ORG}/../a.jpg`],
    ['a dot segment', `message-media/${ORG}/./a.jpg`],
    ['NUL', `message-media/${ORG}/a\0.jpg`],
    ['a long segment', `message-media/${ORG}/${'é'.repeat(128)}`],
    ['a bad bucket', `../${ORG}/a.jpg`],
    ['a bucket with a slash-like name', `.hidden/${ORG}/a.jpg`],
    ['a key over 1024 bytes', `b1/${ORG}/${Array.from({ length: 6 }, () => 'x'.repeat(200)).join('/')}`],
  ])('refuse %s', (_name, text) => {
    expect(() => parseObjectKey(text)).toThrow(InvalidObjectKeyError);
  });

  it('assertObjectKey returns a valid key unchanged', () => {
    const key = { bucket: 'kb_attachments.v2', name: `${ORG}/100%2F.txt` };
    expect(assertObjectKey(key)).toBe(key);
  });
});

describe('nameProblem (one regex on the whole name before any split)', () => {
  const slow = (name: string) =>
    name
      .split('/')
      .map(segmentProblem)
      .find((p) => p !== null) ?? null;
  it.each([
    `${ORG}/a.jpg`,
    `${ORG}/.hidden/..x/x..`,
    `${ORG}/...`,
    `${ORG}//a`,
    `${ORG}/`,
    `/${ORG}/a`,
    `${ORG}/./a`,
    `${ORG}/../a`,
    `${ORG}/a/.`,
    `${ORG}/a/..`,
    '.',
    '..',
    '',
    `${ORG}/a\0b`,
    `${ORG}/${'x'.repeat(255)}`,
    `${ORG}/${'x'.repeat(256)}`,
    `${ORG}/${'é'.repeat(127)}`,
    `${ORG}/${'é'.repeat(128)}`,
    `${ORG}/${'x'.repeat(80)}/${'y'.repeat(80)}`,
  ])('answers like checking each segment: %s', (name) => {
    expect(nameProblem(name)).toBe(slow(name));
  });
});
