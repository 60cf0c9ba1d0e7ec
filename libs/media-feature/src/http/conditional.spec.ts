import { isNotModified, rangeStillApplies } from './conditional';

const ETAG = '"3e8-18c"';
const MODIFIED = new Date('2026-01-01T10:00:00.500Z');

describe('isNotModified', () => {
  it('matches If-None-Match weakly, in a list, or *', () => {
    expect(isNotModified({ ifNoneMatch: ETAG }, ETAG, MODIFIED)).toBe(true);
    expect(isNotModified({ ifNoneMatch: `W/${ETAG}` }, ETAG, MODIFIED)).toBe(true);
    expect(isNotModified({ ifNoneMatch: `"a", ${ETAG}` }, ETAG, MODIFIED)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '*' }, ETAG, MODIFIED)).toBe(true);
    expect(isNotModified({ ifNoneMatch: '"other"' }, ETAG, MODIFIED)).toBe(false);
  });

  it('ignores If-Modified-Since when If-None-Match is present', () => {
    expect(isNotModified({ ifNoneMatch: '"other"', ifModifiedSince: MODIFIED.toUTCString() }, ETAG, MODIFIED)).toBe(false);
  });

  it('compares If-Modified-Since at second precision', () => {
    expect(isNotModified({ ifModifiedSince: 'Thu, 01 Jan 2026 10:00:00 GMT' }, ETAG, MODIFIED)).toBe(true);
    expect(isNotModified({ ifModifiedSince: 'Thu, 01 Jan 2026 09:59:59 GMT' }, ETAG, MODIFIED)).toBe(false);
    expect(isNotModified({ ifModifiedSince: 'yesterday' }, ETAG, MODIFIED)).toBe(false);
    expect(isNotModified({}, ETAG, MODIFIED)).toBe(false);
  });
});

describe('rangeStillApplies', () => {
  it('needs a strong matching ETag or the exact date', () => {
    expect(rangeStillApplies(undefined, ETAG, MODIFIED)).toBe(true);
    expect(rangeStillApplies(ETAG, ETAG, MODIFIED)).toBe(true);
    expect(rangeStillApplies(`W/${ETAG}`, ETAG, MODIFIED)).toBe(false);
    expect(rangeStillApplies('"old"', ETAG, MODIFIED)).toBe(false);
    expect(rangeStillApplies(MODIFIED.toUTCString(), ETAG, MODIFIED)).toBe(true);
    expect(rangeStillApplies('Thu, 01 Jan 2026 09:00:00 GMT', ETAG, MODIFIED)).toBe(false);
  });
});
