import { checkSignature, signBody } from './signature';

describe('X-Hub-Signature-256', () => {
  const secret = 'app-secret-1234';
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');

  it('accepts the HMAC-SHA256 of the exact bytes with the app secret, hex in either case', () => {
    const header = signBody(body, secret);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(checkSignature(body, header, secret)).toBe('valid');
    expect(checkSignature(body, `sha256=${header.slice(7).toUpperCase()}`, secret)).toBe('valid');
  });

  it('refuses another secret, another body, and the same JSON with other bytes (signed over the raw body, not the parsed one)', () => {
    const header = signBody(body, secret);
    expect(checkSignature(body, header, 'another-secret')).toBe('invalid');
    expect(checkSignature(Buffer.from('{"object":"x","entry":[]}'), header, secret)).toBe('invalid');
    const spaced = Buffer.from('{ "object": "whatsapp_business_account", "entry": [] }');
    expect(JSON.parse(spaced.toString())).toEqual(JSON.parse(body.toString()));
    expect(checkSignature(spaced, header, secret)).toBe('invalid');
  });

  it('calls a missing or malformed header missing (not a crash on a short or odd value)', () => {
    for (const h of [undefined, '', 'sha256=', 'sha1=abc', `sha256=${'z'.repeat(64)}`, `sha256=${'a'.repeat(63)}`, 'a'.repeat(5000)])
      expect(checkSignature(body, h, secret)).toBe('missing');
  });
});
