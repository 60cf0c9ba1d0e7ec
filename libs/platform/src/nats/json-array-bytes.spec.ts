import { jsonArrayBytes } from './json-array-bytes';

describe('jsonArrayBytes', () => {
  it('writes head, the items joined by commas, and tail as UTF-8, the bytes of the joined string', () => {
    const cases: [string, string[], string][] = [
      ['{"items":[', [], ']}'],
      ['{"items":[', ['{"a":1}'], ']}'],
      ['{"n":"é","items":[', ['{"a":"中文"}', '"😀"', '{}', '""'], ']}'],
    ];
    for (const [head, items, tail] of cases) {
      const bytes = jsonArrayBytes(head, items, tail);
      expect(bytes.toString('utf8')).toBe(`${head}${items.join(',')}${tail}`);
      expect(bytes.length).toBe(Buffer.byteLength(`${head}${items.join(',')}${tail}`));
    }
  });
});
