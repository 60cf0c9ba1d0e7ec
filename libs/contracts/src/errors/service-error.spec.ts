import { ErrorCode, ErrorEnvelopeSchema } from './error-codes';
import { Errors, ServiceError } from './service-error';

describe('ServiceError envelope', () => {
  it('survives a round trip through JSON', () => {
    const original = new ServiceError(ErrorCode.VALIDATION_ERROR, 422, 'Invalid request', {
      limit: { message: 'limit should be less than or equal to 2000', value: 2001 },
    });
    const envelope = JSON.parse(JSON.stringify(original.toEnvelope()));
    expect(ErrorEnvelopeSchema.parse(envelope)).toEqual(envelope);

    const back = ServiceError.fromEnvelope(envelope);
    expect(back).toBeInstanceOf(ServiceError);
    expect(back).toBeInstanceOf(Error);
    expect(back.code).toBe(original.code);
    expect(back.status).toBe(original.status);
    expect(back.message).toBe(original.message);
    expect(back.fields).toEqual(original.fields);
    expect(back.toEnvelope()).toEqual(original.toEnvelope());
  });

  it('carries the error id of a 500 both ways', () => {
    const envelope = Errors.unknown('0b7f6c9e-1111-4a4a-9b9b-123456789abc').toEnvelope();
    expect(ServiceError.fromEnvelope(envelope).errorId).toBe('0b7f6c9e-1111-4a4a-9b9b-123456789abc');
  });

  it('has exactly code, message and status when there are no fields', () => {
    expect(Errors.unauthorized().toEnvelope()).toEqual({
      code: 'UNAUTHORIZED_ERROR',
      message: 'Invalid or missing bearer token',
      status: 401,
    });
  });
});

describe('Errors (spec part 7)', () => {
  it('phoneUnavailable is 400 ERROR', () => {
    expect(Errors.phoneUnavailable().toEnvelope()).toMatchObject({ code: 'ERROR', status: 400 });
  });

  it('unauthorized is 401 UNAUTHORIZED_ERROR, with a custom message when given', () => {
    expect(Errors.unauthorized('Phone 1 is not accessible').toEnvelope()).toEqual({
      code: 'UNAUTHORIZED_ERROR',
      status: 401,
      message: 'Phone 1 is not accessible',
    });
  });

  it('validation is 422 VALIDATION_ERROR with its fields', () => {
    const fields = { 'body.question': { message: 'question is required' } };
    expect(Errors.validation(fields).toEnvelope()).toMatchObject({ code: 'VALIDATION_ERROR', status: 422, fields });
  });

  it('rateLimited is 429 RATE_LIMIT_ERROR stating the requests per second', () => {
    const envelope = Errors.rateLimited(100).toEnvelope();
    expect(envelope).toMatchObject({ code: 'RATE_LIMIT_ERROR', status: 429 });
    expect(envelope.message).toMatch(/100 requests per second/);
  });

  it('unknown is 500 UNKNOWN_ERROR with the error_id', () => {
    const envelope = Errors.unknown('abc-123').toEnvelope();
    expect(envelope).toMatchObject({ code: 'UNKNOWN_ERROR', status: 500, error_id: 'abc-123' });
    expect(envelope).not.toHaveProperty('fields');
  });

  it('only VALIDATION_ERROR envelopes carry fields, and all validate against the envelope schema', () => {
    const all = [
      Errors.phoneUnavailable(),
      Errors.unauthorized(),
      Errors.validation({ limit: { message: 'm', value: 1 } }),
      Errors.notFound('Route not found'),
      Errors.rateLimited(10),
      Errors.unknown('id'),
      Errors.unavailable('down'),
      Errors.timeout('slow'),
    ];
    for (const error of all) {
      const envelope = error.toEnvelope();
      expect(ErrorEnvelopeSchema.safeParse(envelope).success).toBe(true);
      expect('fields' in envelope).toBe(envelope.code === 'VALIDATION_ERROR');
    }
  });
});
