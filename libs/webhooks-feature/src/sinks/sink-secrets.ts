import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Errors, type SinkCredentials } from '@mapi/contracts';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The associated data of a sink's sealed credentials: they open only on the sinks created with them. */
export const credentialsAad = (orgId: string, integrationId: string) => `event-sink:${orgId}:${integrationId}`;

/**
 * AES-256-GCM for event sinks' credentials, with the key that seals the Baileys auth state
 * (BAILEYS_AUTH_KEY, decision 0087). Layout as the phones' AuthCipher: version byte, IV, tag, ciphertext.
 * Without a key, sinks without credentials still work; sealing answers 503 and opening fails the delivery.
 */
export class SinkSecrets {
  constructor(private readonly key: Buffer | null) {
    if (key && key.length !== 32) throw new Error('the event sink credentials key must be 32 bytes');
  }

  seal(credentials: SinkCredentials, aad: string): Buffer {
    if (!this.key) throw Errors.unavailable('event sink credentials cannot be stored: BAILEYS_AUTH_KEY is not set on the webhooks service');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad));
    const data = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), data]);
  }

  open(sealed: Uint8Array, aad: string): SinkCredentials {
    if (!this.key) throw new Error('credentials are sealed but BAILEYS_AUTH_KEY is not set');
    const buf = Buffer.from(sealed);
    if (buf[0] !== VERSION || buf.length < 1 + IV_BYTES + TAG_BYTES) throw new Error('unknown credentials ciphertext format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, buf.subarray(1, 1 + IV_BYTES));
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(buf.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES));
    return JSON.parse(Buffer.concat([decipher.update(buf.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8'));
  }
}
