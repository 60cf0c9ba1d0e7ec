import type { ListPhonesRequest, Phone } from '@mapi/contracts';
import { mapPhone } from '../../phones/map-phone';
import type { PhoneRepository } from '../../repositories/phone-repository';

/** GET /phones/all: the organization's phones within the token's scope. */
export class ListPhones {
  constructor(private readonly phones: PhoneRepository) {}

  async execute({ ctx }: ListPhonesRequest): Promise<Phone[]> {
    return (await this.phones.list(ctx.org_id, ctx.phone_scope)).map(mapPhone);
  }
}
