import { Errors, HttpReply, type CreatePhoneRequest, type Phone } from '@mapi/contracts';
import { mapPhone } from '../../phones/map-phone';
import type { PhoneRepository } from '../../repositories/phone-repository';
import type { CloudApiStore } from '../../cloud-api/cloud-api-store';

/** POST /phones/create: a new phone slot; its session starts within a scan interval and shows a QR. Unscoped tokens only. */
export class CreatePhone {
  constructor(
    private readonly phones: PhoneRepository,
    private readonly defaultConnector: string,
    /** Cloud API phones (`cloud_api` in the body): created with their sealed secrets, docs/services/cloud-api.md. */
    private readonly cloudApi?: CloudApiStore,
  ) {}

  async execute({ ctx, body }: CreatePhoneRequest): Promise<HttpReply<Phone>> {
    if (ctx.phone_scope) throw Errors.unauthorized('A token scoped to phones cannot create phones');
    if (body?.cloud_api) {
      if (!this.cloudApi) throw Errors.validation({ 'body.cloud_api': { message: 'Cloud API phones are not enabled on this server' } });
      return new HttpReply(201, mapPhone(await this.cloudApi.create(ctx.org_id, body.phone_name, body.cloud_api)));
    }
    const row = await this.phones.create(ctx.org_id, { phone_name: body?.phone_name, connector: this.defaultConnector });
    return new HttpReply(201, mapPhone(row));
  }
}
