import { MIN_SECRET_BYTES, parseSigningKeys } from './signing-keys';

const secret = 's'.repeat(MIN_SECRET_BYTES);

describe('parseSigningKeys', () => {
  it('reads a list whose first key is current, with optional retirement dates', () => {
    const keys = parseSigningKeys(
      JSON.stringify([
        { kid: 'b', secret },
        { kid: 'a', secret, retired_at: '2026-01-01T00:00:00Z' },
      ]),
    );
    expect(keys).toEqual([
      { kid: 'b', secret },
      { kid: 'a', secret, retiredAt: new Date('2026-01-01T00:00:00Z') },
    ]);
  });

  it.each([
    ['not JSON', 'nope', /JSON list/],
    ['an empty list', '[]', /at least one key/],
    ['a short secret', JSON.stringify([{ kid: 'a', secret: 'short' }]), /at least 32 bytes/],
    ['a bad kid', JSON.stringify([{ kid: 'a b', secret }]), /kid/],
    [
      'duplicate kids',
      JSON.stringify([
        { kid: 'a', secret },
        { kid: 'a', secret },
      ]),
      /unique/,
    ],
    ['a retired current key', JSON.stringify([{ kid: 'a', secret, retired_at: '2026-01-01T00:00:00Z' }]), /cannot be retired/],
    [
      'a bad date',
      JSON.stringify([
        { kid: 'a', secret },
        { kid: 'b', secret, retired_at: 'soon' },
      ]),
      /retired_at/,
    ],
  ])('refuses %s', (_name, json, message) => {
    expect(() => parseSigningKeys(json)).toThrow(message);
  });
});
