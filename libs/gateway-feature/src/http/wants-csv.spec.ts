import { wantsCsv } from './route-handler';

describe('wantsCsv', () => {
  it('is asked by Accept: text/csv (any case, with parameters), not by its absence or q=0', () => {
    expect(['text/csv', 'TEXT/CSV', 'application/json, text/csv;q=0.5', 'text/csv; charset=utf-8'].map(wantsCsv)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([undefined, '', '*/*', 'application/json', 'text/csv;q=0', 'text/csvx'].map(wantsCsv)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
