import { Errors, type GetPhoneRequest, type Phone } from '@mapi/contracts';
import { mapPhone } from '../../phones/map-phone';
import type { PhoneRepository } from '../../repositories/phone-repository';
import { requirePhone } from '../../phones/require-phone';

/** GET /phones: the x-phone phone of the caller's organization (401 when the token does not reach it). */
export class GetPhone {
  constructor(private readonly phones: PhoneRepository) {}

  async execute({ ctx }: GetPhoneRequest): Promise<Phone> {
    const phoneId = requirePhone(ctx);
    const row = await this.phones.find(ctx.org_id, phoneId);
    if (!row) throw Errors.unauthorized(`Phone ${phoneId} is not accessible with this token`);
    return mapPhone(row);
  }
}
