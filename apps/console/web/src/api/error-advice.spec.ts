import { adviceFor, withAdvice } from './error-advice';

describe("the console's error texts", () => {
  it('say what to do for each kind of refusal or failure', () => {
    expect(adviceFor(401)).toMatch(/sign in again/i);
    expect(adviceFor(403)).toMatch(/owner or admin/);
    expect(adviceFor(404)).toMatch(/reload/);
    expect(adviceFor(429)).toMatch(/wait/i);
    expect(adviceFor(502)).toMatch(/gateway/);
    expect(adviceFor(503)).toMatch(/not running.*retry/);
    expect(adviceFor(504)).toMatch(/too long/);
    expect(adviceFor(500)).toMatch(/error id/);
    expect(adviceFor(400, 'SERVICE_UNAVAILABLE_ERROR')).toBe(adviceFor(503));
    // A network failure's own text says it; a plain 400 carries the API's own words.
    expect(adviceFor(0)).toBeNull();
    expect(adviceFor(400)).toBeNull();
  });

  it('joins the message, the fields and the advice as sentences', () => {
    expect(withAdvice('No instance of the service is available', 503, 'SERVICE_UNAVAILABLE_ERROR')).toBe(
      'No instance of the service is available. The service behind this page is not running or is restarting; retry in a moment, and if it lasts ask whoever runs the server to start it.',
    );
    expect(withAdvice('Invalid request.', 422, 'VALIDATION_ERROR', { chat_id: { message: 'chat_id is required' } })).toBe(
      'Invalid request. chat_id: chat_id is required. Correct what is named above and try again.',
    );
    expect(withAdvice('Phone is disconnected', 400)).toBe('Phone is disconnected.');
  });
});
