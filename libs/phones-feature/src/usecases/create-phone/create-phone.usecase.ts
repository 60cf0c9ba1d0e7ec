import { Errors, HttpReply, type CreatePhoneRequest, type Phone } from '@mapi/contracts';
import { mapPhone } from '../../phones/map-phone';
import type { PhoneRepository } from '../../repositories/phone-repository';

/** POST /phones/create: a new phone slot; its session starts within a scan interval and shows a QR. Unscoped tokens only. */
export class CreatePhone {
  constructor(
    private readonly phones: PhoneRepository,
    private readonly defaultConnector: string,
  ) {}

  async execute({ ctx, body }: CreatePhoneRequest): Promise<HttpReply<Phone>> {
    if (ctx.phone_scope) throw Errors.unauthorized('A token scoped to phones cannot create phones');
    const row = await this.phones.create(ctx.org_id, { phone_name: body?.phone_name, connector: this.defaultConnector });
    return new HttpReply(201, mapPhone(row));
  }
}
