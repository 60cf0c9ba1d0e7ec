import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM for auth-state rows. The row's address (phone, kind, key id) is the associated data, so
 * a row copied onto another phone or key does not decrypt. Layout: version byte, IV, tag, ciphertext.
 */
export class AuthCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the auth-state key must be 32 bytes');
  }

  encrypt(plain: string, aad: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), data]);
  }

  decrypt(sealed: Uint8Array, aad: string): string {
    const buf = Buffer.from(sealed);
    if (buf[0] !== VERSION || buf.length < 1 + IV_BYTES + TAG_BYTES) throw new Error('unknown auth-state ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, buf.subarray(1, 1 + IV_BYTES));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(buf.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(buf.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
