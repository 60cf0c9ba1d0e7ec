import { preferredEncoding } from './compression';

describe('preferredEncoding (what a large JSON answer is compressed in)', () => {
  it.each([
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['GZIP;Q=0.8', 'gzip'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['br;q=0, gzip;q=0, *;q=0.5', undefined],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip;q=abc', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %p → %p', (accept, expected) => {
    expect(preferredEncoding(accept)).toBe(expected);
  });

  it('gives nothing when the request says x-no-compression', () => {
    expect(preferredEncoding('gzip, br', '1')).toBeUndefined();
    expect(preferredEncoding('gzip, br', '')).toBeUndefined();
  });
});
