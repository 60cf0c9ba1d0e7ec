import { randomBytes } from 'node:crypto';
import { AuthCipher } from './auth-cipher';

describe('AuthCipher', () => {
  const cipher = new AuthCipher(randomBytes(32));

  it('round-trips and never stores the plaintext', () => {
    const sealed = cipher.encrypt('{"noiseKey":"secret-value"}', 'phone-a/creds/');
    expect(sealed.toString('latin1')).not.toContain('secret-value');
    expect(cipher.decrypt(sealed, 'phone-a/creds/')).toBe('{"noiseKey":"secret-value"}');
  });

  it('uses a fresh IV each time', () => {
    expect(cipher.encrypt('x', 'a').equals(cipher.encrypt('x', 'a'))).toBe(false);
  });

  it('refuses a row moved to another address, a tampered row, or another key', () => {
    const sealed = cipher.encrypt('value', 'phone-a/session/1');
    expect(() => cipher.decrypt(sealed, 'phone-b/session/1')).toThrow();
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] ^= 1;
    expect(() => cipher.decrypt(tampered, 'phone-a/session/1')).toThrow();
    expect(() => new AuthCipher(randomBytes(32)).decrypt(sealed, 'phone-a/session/1')).toThrow();
    expect(() => cipher.decrypt(Buffer.from([9, 1, 2]), 'phone-a/session/1')).toThrow('unknown auth-state ciphertext format');
  });

  it('needs a 32-byte key', () => {
    expect(() => new AuthCipher(randomBytes(16))).toThrow('32 bytes');
  });
});
