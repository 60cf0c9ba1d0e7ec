import { Webhook } from 'standardwebhooks';
import { createHmac } from 'node:crypto';
import { generateSecret, secretKey, signatureHeaders } from './signing';

describe('webhook signatures', () => {
  const secret = generateSecret();
  const body = JSON.stringify({ event_id: '7b1a2f0e-8f7e-4a55-9a41-0f5d7f2b6c11', event_type: 'message.created', data: { body: 'héllo' } });
  const id = '7b1a2f0e-8f7e-4a55-9a41-0f5d7f2b6c11';

  it('makes secrets of 32 random bytes in the whsec_ form', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(secret)).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it('verifies with the standardwebhooks library', () => {
    const headers = signatureHeaders(secret, id, body, new Date());
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('fails verification for a tampered body, id or signature, and for another secret', () => {
    const headers = signatureHeaders(secret, id, body, new Date());
    const wh = new Webhook(secret);
    expect(() => wh.verify(body.replace('héllo', 'hello'), headers)).toThrow();
    expect(() => wh.verify(body, { ...headers, 'webhook-id': 'another-id' })).toThrow();
    const sig = headers['webhook-signature'];
    const flipped = sig.slice(0, 5) + (sig[5] === 'A' ? 'B' : 'A') + sig.slice(6);
    expect(() => wh.verify(body, { ...headers, 'webhook-signature': flipped })).toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
  });

  it('fails verification for a replayed (old) or skewed (future) timestamp', () => {
    const wh = new Webhook(secret);
    const old = signatureHeaders(secret, id, body, new Date(Date.now() - 10 * 60_000));
    expect(() => wh.verify(body, old)).toThrow(/timestamp/i);
    const future = signatureHeaders(secret, id, body, new Date(Date.now() + 10 * 60_000));
    expect(() => wh.verify(body, future)).toThrow(/timestamp/i);
    // A replay of a fresh delivery with its timestamp moved forward no longer matches the signature.
    const fresh = signatureHeaders(secret, id, body, new Date(Date.now() - 60_000));
    expect(() => wh.verify(body, { ...fresh, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) })).toThrow();
  });

  it('also signs the body alone as hex in x-service-signature', () => {
    const headers = signatureHeaders(secret, id, body, new Date());
    expect(headers['x-service-signature']).toBe(createHmac('sha256', secretKey(secret)).update(body).digest('hex'));
    expect(signatureHeaders(secret, id, body + ' ', new Date())['x-service-signature']).not.toBe(headers['x-service-signature']);
  });
});
