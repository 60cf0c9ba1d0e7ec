import { envBool } from './config';

describe('envBool', () => {
  const parse = (v: string | undefined, def = true) => envBool(def).safeParse(v);

  it('reads true/1 and false/0, and the default when empty or unset', () => {
    expect([parse('true'), parse('1'), parse('false'), parse('0')].map((r) => r.data)).toEqual([true, true, false, false]);
    expect([parse('').data, parse(undefined).data, parse('', false).data]).toEqual([true, true, false]);
  });

  it('refuses anything else, so a typo cannot switch a safety setting off', () => {
    for (const v of ['TRUE', 'yes', 'on', 'False', ' 1']) expect(parse(v).success).toBe(false);
  });
});
