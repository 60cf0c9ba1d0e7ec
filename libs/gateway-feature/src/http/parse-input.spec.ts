import { ServiceError } from '@mapi/contracts';
import { z } from 'zod';
import { parseInput } from './parse-input';

const OptionalBody = z.object({ ids: z.array(z.string()) }).optional();

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as ServiceError).toEnvelope();
  }
  throw new Error('expected a 422');
};

describe('parseInput', () => {
  it('takes an absent body as no body where the body is optional', () => {
    expect(parseInput(OptionalBody, undefined, 'body')).toBeUndefined();
  });

  it('refuses a JSON null body with 422 on body, even where the body is optional', () => {
    expect(refusal(() => parseInput(OptionalBody, null, 'body'))).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
      fields: { body: { message: expect.any(String) } },
    });
  });

  it('refuses a NUL character (Postgres text cannot hold it) in any body string or key, and in parameters, with 422 naming the field', () => {
    const Body = z.object({ name: z.string(), tags: z.array(z.string()).optional(), meta: z.record(z.string(), z.unknown()).optional() });
    expect(refusal(() => parseInput(Body, { name: 'a\u0000b', tags: ['ok', 'x\u0000'], meta: { 'k\u0000': 1 } }, 'body'))).toMatchObject({
      status: 422,
      code: 'VALIDATION_ERROR',
      fields: {
        'body.name': { message: expect.stringContaining('NUL') },
        'body.tags.1': expect.any(Object),
        'body.meta.k\u0000': expect.any(Object),
      },
    });
    expect(refusal(() => parseInput(z.object({ type: z.string().optional() }), { type: 'x\u0000' }, 'query')).fields).toEqual({
      type: { message: expect.stringContaining('NUL'), value: null },
    });
    expect(parseInput(Body, { name: 'plain' }, 'body')).toEqual({ name: 'plain' });
  });

  it('reads absent query and path parameters as an empty object', () => {
    expect(parseInput(z.object({ limit: z.coerce.number().default(5) }), undefined, 'query')).toEqual({ limit: 5 });
  });
});
