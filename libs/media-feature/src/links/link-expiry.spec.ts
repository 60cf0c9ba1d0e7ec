import { clampExpiry } from './link-expiry';

describe('clampExpiry', () => {
  it.each([
    [-5, 60],
    [0, 60],
    [59.9, 60],
    [60, 60],
    [61.7, 61],
    [86400, 86400],
    [604800, 604800],
    [604801, 604800],
    [1e12, 604800],
    [Number.POSITIVE_INFINITY, 604800],
    [Number.NaN, 604800],
  ])('%p → %p', (input, expected) => {
    expect(clampExpiry(input)).toBe(expected);
  });
});
