import { NotFoundException } from '@nestjs/common';
import { Errors } from '@mapi/contracts';
import type { Logger } from '@mapi/platform';
import { toServiceError } from './error-mapping';

const fakeLogger = () => ({ error: jest.fn(), warn: jest.fn(), info: jest.fn() });
const map = (error: unknown) => {
  const logger = fakeLogger();
  return { result: toServiceError(error, logger as unknown as Logger), logger };
};
const fastifyError = (code: string, statusCode: number, message = 'framework message') =>
  Object.assign(new Error(message), { code, statusCode });

describe('toServiceError', () => {
  it('passes a ServiceError through unchanged', () => {
    const error = Errors.unauthorized();
    expect(map(error).result).toBe(error);
  });

  it('maps a body that is too large to 413 PAYLOAD_TOO_LARGE_ERROR', () => {
    const { result } = map(fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413));
    expect(result.toEnvelope()).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE_ERROR' });
  });

  it.each([
    ['FST_ERR_MAX_PARAM_LENGTH', 414],
    ['FST_ERR_BAD_URL', 400],
  ])('maps the router refusal %s to 422 VALIDATION_ERROR on the path, logging nothing', (code, statusCode) => {
    const { result, logger } = map(fastifyError(code, statusCode, "'/v1/x/aaaa' is not a valid url component"));
    expect(result.toEnvelope()).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', fields: { path: { message: expect.any(String) } } });
    expect(JSON.stringify(result.toEnvelope())).not.toContain('valid url component');
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('maps an unsupported content type to 415 UNSUPPORTED_MEDIA_TYPE_ERROR', () => {
    const { result } = map(fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415));
    expect(result.toEnvelope()).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE_ERROR' });
  });

  it.each([
    ['MALFORMED_JSON', 422],
    ['FST_ERR_CTP_EMPTY_JSON_BODY', 400],
    ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400],
  ])('maps %s to 422 VALIDATION_ERROR with fields.body', (code, statusCode) => {
    const { result } = map(fastifyError(code, statusCode, 'Unexpected token } in JSON at position 7'));
    const envelope = result.toEnvelope();
    expect(envelope).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect(envelope.fields?.body).toEqual({ message: expect.any(String) });
    expect(JSON.stringify(envelope)).not.toContain('Unexpected token');
  });

  it.each([
    ['a framework error with statusCode 404', Object.assign(new Error('Route GET:/v1/nope not found'), { statusCode: 404 })],
    ["Nest's NotFoundException", new NotFoundException('Cannot GET /v1/nope')],
  ])('maps %s to 404 NOT_FOUND_ERROR', (_what, error) => {
    const envelope = map(error).result.toEnvelope();
    expect(envelope).toMatchObject({ status: 404, code: 'NOT_FOUND_ERROR' });
    expect(envelope.message).not.toContain('/v1/nope');
  });

  it('maps anything else to 500 UNKNOWN_ERROR whose error_id is logged with the error', () => {
    const original = new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2');
    const { result, logger } = map(original);
    const envelope = result.toEnvelope();

    expect(envelope).toMatchObject({ status: 500, code: 'UNKNOWN_ERROR' });
    expect(envelope.error_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(logger.error).toHaveBeenCalledTimes(1);
    const [logged] = logger.error.mock.calls[0];
    expect(logged).toMatchObject({ error_id: envelope.error_id, err: original });

    const text = JSON.stringify(envelope);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('ECONNREFUSED');
    expect(text).not.toMatch(/\bat .+:\d+:\d+/); // no stack frame
    expect(text).not.toContain(__filename);
  });

  it.each([
    ['a thrown string', 'boom'],
    ['null', null],
    ['undefined', undefined],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'x')")],
  ])('maps %s to 500 UNKNOWN_ERROR', (_what, error) => {
    const { result, logger } = map(error);
    expect(result.status).toBe(500);
    expect(result.code).toBe('UNKNOWN_ERROR');
    expect(JSON.stringify(result.toEnvelope())).not.toContain('reading');
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it('gives each unexpected failure its own error_id', () => {
    const a = map(new Error('x')).result.errorId;
    const b = map(new Error('x')).result.errorId;
    expect(a).toBeDefined();
    expect(a).not.toBe(b);
  });

  it('does not log expected failures as errors', () => {
    for (const error of [Errors.validation({}), fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413), { statusCode: 404 }]) {
      expect(map(error).logger.error).not.toHaveBeenCalled();
    }
  });
});
