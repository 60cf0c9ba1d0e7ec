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
    expect(refusal(() => parseInput(OptionalBody, null, 'body'))).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', fields: { body: { message: expect.any(String) } } });
  });

  it('reads absent query and path parameters as an empty object', () => {
    expect(parseInput(z.object({ limit: z.coerce.number().default(5) }), undefined, 'query')).toEqual({ limit: 5 });
  });
});
