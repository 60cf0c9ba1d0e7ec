import type { PrismaClient } from '@mapi/db';
import {
  BufferJSON,
  initAuthCreds,
  proto,
  type AuthenticationCreds,
  type AuthenticationState,
  type SignalDataSet,
  type SignalDataTypeMap,
} from 'baileys';
import type { AuthCipher } from './auth-cipher';

const CREDS = 'creds';

/**
 * A Baileys session's auth state (creds and signal keys) in Postgres (`baileys_auth`), encrypted per
 * row, so whichever phones replica holds the phone's lease resumes the session without a new QR scan.
 * Values are serialized with the library's BufferJSON (Buffers survive), as its file store does.
 */
export class BaileysAuthStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cipher: AuthCipher,
  ) {}

  private aad(phoneId: string, kind: string, keyId: string): string {
    return `${phoneId}/${kind}/${keyId}`;
  }

  private seal(phoneId: string, kind: string, keyId: string, value: unknown): Uint8Array<ArrayBuffer> {
    return new Uint8Array(this.cipher.encrypt(JSON.stringify(value, BufferJSON.replacer), this.aad(phoneId, kind, keyId)));
  }

  private open(phoneId: string, kind: string, keyId: string, sealed: Uint8Array): unknown {
    return JSON.parse(this.cipher.decrypt(sealed, this.aad(phoneId, kind, keyId)), BufferJSON.reviver);
  }

  /** The phone's state (fresh creds when it never paired) and `saveCreds` for the `creds.update` event. */
  async load(phoneId: string): Promise<{ state: AuthenticationState; saveCreds: () => Promise<void> }> {
    const row = await this.prisma.baileysAuth.findUnique({
      where: { phone_id_kind_key_id: { phone_id: phoneId, kind: CREDS, key_id: '' } },
    });
    const creds = row ? (this.open(phoneId, CREDS, '', row.value) as AuthenticationCreds) : initAuthCreds();
    const state: AuthenticationState = {
      creds,
      keys: {
        get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
          const rows = await this.prisma.baileysAuth.findMany({ where: { phone_id: phoneId, kind: type, key_id: { in: ids } } });
          const out: { [id: string]: SignalDataTypeMap[T] } = {};
          for (const r of rows) {
            let value = this.open(phoneId, type, r.key_id, r.value);
            // The library expects a protobuf object here, as its own file store rebuilds it.
            if (type === 'app-state-sync-key' && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
            out[r.key_id] = value as SignalDataTypeMap[T];
          }
          return out;
        },
        set: (data: SignalDataSet) => this.setKeys(phoneId, data),
      },
    };
    return { state, saveCreds: () => this.saveCreds(phoneId, state.creds) };
  }

  async saveCreds(phoneId: string, creds: AuthenticationCreds): Promise<void> {
    const value = this.seal(phoneId, CREDS, '', creds);
    await this.prisma.baileysAuth.upsert({
      where: { phone_id_kind_key_id: { phone_id: phoneId, kind: CREDS, key_id: '' } },
      create: { phone_id: phoneId, kind: CREDS, key_id: '', value },
      update: { value, updated_at: new Date() },
    });
  }

  /** Writes and deletes (null values) signal keys in one transaction. */
  async setKeys(phoneId: string, data: SignalDataSet): Promise<void> {
    const ops = [];
    for (const [kind, entries] of Object.entries(data)) {
      for (const [keyId, v] of Object.entries(entries ?? {})) {
        const where = { phone_id_kind_key_id: { phone_id: phoneId, kind, key_id: keyId } };
        if (v === null || v === undefined) {
          ops.push(this.prisma.baileysAuth.deleteMany({ where: { phone_id: phoneId, kind, key_id: keyId } }));
        } else {
          const value = this.seal(phoneId, kind, keyId, v);
          ops.push(
            this.prisma.baileysAuth.upsert({
              where,
              create: { phone_id: phoneId, kind, key_id: keyId, value },
              update: { value, updated_at: new Date() },
            }),
          );
        }
      }
    }
    if (ops.length) await this.prisma.$transaction(ops);
  }

  /** Whether the phone has paired creds stored (a session that can resume without a QR). */
  async isRegistered(phoneId: string): Promise<boolean> {
    const row = await this.prisma.baileysAuth.findUnique({
      where: { phone_id_kind_key_id: { phone_id: phoneId, kind: CREDS, key_id: '' } },
    });
    return !!row && !!(this.open(phoneId, CREDS, '', row.value) as AuthenticationCreds).registered;
  }

  /** Forgets the pairing (a logout): the next session starts from a fresh QR. */
  async clear(phoneId: string): Promise<void> {
    await this.prisma.baileysAuth.deleteMany({ where: { phone_id: phoneId } });
  }
}
