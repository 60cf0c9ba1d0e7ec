import { Errors, type CloudApiCredentials } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { AuthCipher } from '../baileys/auth-cipher';
import { newPhoneId, type PhoneRow } from '../repositories/phone-repository';

export interface CloudApiSecrets {
  phone_id: string;
  org_id: string;
  phone_number_id: string;
  waba_id: string;
  access_token: string;
  app_secret: string;
  verify_token: string;
  /** The phone's contact id once connected (`<digits>@c.us`), else null. */
  org_phone: string | null;
}

type SecretField = 'access_token' | 'app_secret' | 'verify_token';

/**
 * Cloud API phones and their secrets, sealed with the Baileys auth-state cipher (AES-256-GCM, the
 * phone and the field as associated data, so a value copied to another phone or field does not open).
 * Reads by phone_id alone serve the phone's own session and its webhook (the phone_id is its address).
 */
export class CloudApiStore {
  private readonly cipher: AuthCipher | null;

  constructor(
    private readonly prisma: PrismaClient,
    key: Buffer | null,
  ) {
    this.cipher = key ? new AuthCipher(key) : null;
  }

  get configured(): boolean {
    return this.cipher !== null;
  }

  /** A new phone of connector `cloud_api` and its sealed secrets, in one transaction. */
  async create(orgId: string, phoneName: string | undefined, creds: CloudApiCredentials): Promise<PhoneRow> {
    const cipher = this.cipher;
    if (!cipher)
      throw Errors.validation(
        { 'body.cloud_api': { message: 'Cloud API phones are not enabled on this server (CLOUD_API_SECRETS_KEY is not set)' } },
        'Cloud API phones are not enabled on this server',
      );
    const phoneId = newPhoneId();
    const seal = (field: SecretField) => Buffer.from(cipher.encrypt(creds[field], aad(phoneId, field)));
    const [row] = await this.prisma.$transaction([
      this.prisma.phone.create({
        data: { phone_id: phoneId, org_id: orgId, org_phone: null, phone_name: phoneName ?? null, connector: 'cloud_api' },
      }),
      this.prisma.cloudApiPhone.create({
        data: {
          phone_id: phoneId,
          org_id: orgId,
          phone_number_id: creds.phone_number_id,
          waba_id: creds.waba_id,
          access_token: seal('access_token'),
          app_secret: seal('app_secret'),
          verify_token: seal('verify_token'),
        },
      }),
    ]);
    return row;
  }

  /** The phone's secrets, opened; null for a phone that is deleted, not a Cloud API phone, or whose secrets were forgotten. */
  async load(phoneId: string): Promise<CloudApiSecrets | null> {
    if (!this.cipher) return null;
    const row = await this.prisma.cloudApiPhone.findUnique({ where: { phone_id: phoneId } });
    if (!row) return null;
    const phone = await this.prisma.phone.findFirst({
      where: { phone_id: phoneId, org_id: row.org_id, deleted_at: null, connector: 'cloud_api' },
      select: { org_phone: true },
    });
    if (!phone) return null;
    const cipher = this.cipher;
    const open = (field: SecretField) => cipher.decrypt(row[field], aad(phoneId, field));
    return {
      phone_id: phoneId,
      org_id: row.org_id,
      phone_number_id: row.phone_number_id,
      waba_id: row.waba_id,
      access_token: open('access_token'),
      app_secret: open('app_secret'),
      verify_token: open('verify_token'),
      org_phone: phone.org_phone,
    };
  }

  /** Forgets the phone's secrets (logout, delete): its session and webhook stop working. */
  async forget(phoneId: string): Promise<void> {
    await this.prisma.cloudApiPhone.deleteMany({ where: { phone_id: phoneId } });
  }
}

const aad = (phoneId: string, field: string) => `cloud_api:${phoneId}:${field}`;
