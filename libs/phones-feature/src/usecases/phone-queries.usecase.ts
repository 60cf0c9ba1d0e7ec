import { Errors, WaState, type Phone, type RequestContext } from '@mapi/contracts';
import { mapPhone } from '../phones/map-phone';
import type { PhoneRepository } from '../phones/phone-repository';

/** GET /phones, GET /phones/all, GET /phones/qr: reads of the caller's phones. */
export class PhoneQueries {
  constructor(private readonly phones: PhoneRepository) {}

  async get(ctx: RequestContext): Promise<Phone> {
    const row = await this.phones.find(ctx.org_id, requirePhone(ctx));
    if (!row) throw Errors.unauthorized(`Phone ${requirePhone(ctx)} is not accessible with this token`);
    return mapPhone(row);
  }

  async list(ctx: RequestContext): Promise<Phone[]> {
    return (await this.phones.list(ctx.org_id, ctx.phone_scope)).map(mapPhone);
  }

  /** The QR to scan, only while the phone is not connected (400 ERROR otherwise, or while none is shown yet). */
  async qr(ctx: RequestContext): Promise<{ phone_id: string; wa_state: string; qr_code: string }> {
    const phone = await this.get(ctx);
    if (phone.wa_state === WaState.CONNECTED) throw Errors.phoneUnavailable('The phone is connected: there is no QR code to scan');
    if (!phone.qr_code) throw Errors.phoneUnavailable(`No QR code yet (state ${phone.wa_state}): the phone's session is starting, try again shortly`);
    return { phone_id: phone.phone_id, wa_state: phone.wa_state, qr_code: phone.qr_code };
  }
}

export function requirePhone(ctx: RequestContext): string {
  if (!ctx.phone) throw Errors.validation({ 'x-phone': { message: 'x-phone header is required', value: null } });
  return ctx.phone.phone_id;
}
