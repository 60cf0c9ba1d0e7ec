import { PhoneDirectoryRpc, type PhoneRef } from '@mapi/contracts';
import type { NatsRpcClient } from '@mapi/platform';

export interface ResolvedPhone {
  phone_id: string;
  org_phone: string | null;
}

/**
 * Phone lookups for `x-phone`, from the phones service that owns the table (phones.v1.directory);
 * every lookup names the organization. PhoneResolver caches the answers.
 */
export class PhoneDirectoryClient {
  constructor(private readonly rpc: NatsRpcClient) {}

  async findByRef(orgId: string, ref: PhoneRef): Promise<ResolvedPhone | null> {
    const filter = ref.kind === 'phone_id' ? { phone_ids: [ref.phone_id] } : { org_phone: ref.org_phone };
    const [first] = await this.rpc.call(PhoneDirectoryRpc, { org_id: orgId, connected: false, ...filter });
    return first ? { phone_id: first.phone_id, org_phone: first.org_phone } : null;
  }
}
