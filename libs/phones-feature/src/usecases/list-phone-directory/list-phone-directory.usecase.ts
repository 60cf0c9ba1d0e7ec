import type { PhoneDirectoryEntry, PhoneDirectoryRequest } from '@mapi/contracts';
import type { PhoneRepository } from '../../repositories/phone-repository';

/** phones.v1.directory: an organization's phones as other services need to know them (never deleted ones). */
export class ListPhoneDirectory {
  constructor(private readonly phones: PhoneRepository) {}

  async execute({ org_id, phone_ids, org_phone, connected }: PhoneDirectoryRequest): Promise<PhoneDirectoryEntry[]> {
    const rows = await this.phones.directory(org_id, { phoneIds: phone_ids ?? null, orgPhone: org_phone, connected });
    return rows.map((r) => ({
      phone_id: r.phone_id,
      org_phone: r.org_phone,
      wa_state: r.wa_state,
      created_at: r.created_at.toISOString(),
      connector: r.connector,
    }));
  }
}
