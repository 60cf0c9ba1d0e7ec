import { Webhook } from 'standardwebhooks';
import { createHmac } from 'node:crypto';
import { generateSecret, secretKey, signatureHeaders, signingSecrets } from './signing';

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
    const headers = signatureHeaders([secret], id, body, new Date());
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  });

  it('fails verification for a tampered body, id or signature, and for another secret', () => {
    const headers = signatureHeaders([secret], id, body, new Date());
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
    const old = signatureHeaders([secret], id, body, new Date(Date.now() - 10 * 60_000));
    expect(() => wh.verify(body, old)).toThrow(/timestamp/i);
    const future = signatureHeaders([secret], id, body, new Date(Date.now() + 10 * 60_000));
    expect(() => wh.verify(body, future)).toThrow(/timestamp/i);
    // A replay of a fresh delivery with its timestamp moved forward no longer matches the signature.
    const fresh = signatureHeaders([secret], id, body, new Date(Date.now() - 60_000));
    expect(() => wh.verify(body, { ...fresh, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) })).toThrow();
  });

  it('also signs the body alone as hex in x-service-signature', () => {
    const headers = signatureHeaders([secret], id, body, new Date());
    expect(headers['x-service-signature']).toBe(createHmac('sha256', secretKey(secret)).update(body).digest('hex'));
    expect(signatureHeaders([secret], id, body + ' ', new Date())['x-service-signature']).not.toBe(headers['x-service-signature']);
  });
});

describe('signatures during a secret rotation', () => {
  const body = JSON.stringify({ event_id: 'c2a1e7b4-5d0e-4f59-8d2b-3a8f9e1c0d11', data: { n: 1 } });
  const id = 'c2a1e7b4-5d0e-4f59-8d2b-3a8f9e1c0d11';
  const oldSecret = generateSecret();
  const newSecret = generateSecret();
  const now = new Date();

  it('signs with the new and the old secret while the overlap window is open: a receiver holding either verifies', () => {
    const secrets = signingSecrets(newSecret, oldSecret, new Date(now.getTime() + 60_000), now);
    expect(secrets).toEqual([newSecret, oldSecret]);
    const headers = signatureHeaders(secrets, id, body, now);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=* v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(newSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
    // The body-only signature stays single-valued, with the current secret.
    expect(headers['x-service-signature']).toBe(createHmac('sha256', secretKey(newSecret)).update(body).digest('hex'));
  });

  it('signs with the new secret only once the window has ended (or when there was no rotation)', () => {
    for (const secrets of [
      signingSecrets(newSecret, oldSecret, now, now),
      signingSecrets(newSecret, null, null, now),
      signingSecrets(newSecret, oldSecret, new Date(now.getTime() - 1), now),
    ]) {
      expect(secrets).toEqual([newSecret]);
      const headers = signatureHeaders(secrets, id, body, now);
      expect(new Webhook(newSecret).verify(body, headers)).toEqual(JSON.parse(body));
      expect(() => new Webhook(oldSecret).verify(body, headers)).toThrow();
    }
  });
});
