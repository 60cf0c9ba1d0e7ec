import { GaugeSeries } from './metrics';

describe('GaugeSeries', () => {
  it('adds a 0 for every attribute set seen before and missing now, whatever the order of its attributes', () => {
    const series = new GaugeSeries();
    expect(
      series.withZeros([
        [2, { phone_id: 'a', state: 'waiting' }],
        [1, { phone_id: 'b', state: 'waiting' }],
      ]),
    ).toEqual([
      [2, { phone_id: 'a', state: 'waiting' }],
      [1, { phone_id: 'b', state: 'waiting' }],
    ]);
    expect(series.withZeros([[5, { state: 'waiting', phone_id: 'b' }]])).toEqual([
      [5, { state: 'waiting', phone_id: 'b' }],
      [0, { phone_id: 'a', state: 'waiting' }],
    ]);
    expect(series.withZeros([])).toEqual([
      [0, { phone_id: 'a', state: 'waiting' }],
      [0, { state: 'waiting', phone_id: 'b' }],
    ]);
  });
});
