import { Errors, WaState, type GetQrRequest, type QrResponse } from '@mapi/contracts';
import type { GetPhone } from '../get-phone/get-phone.usecase';

/** GET /phones/qr: the QR to scan, only while the phone is not connected (400 ERROR otherwise, or while none is shown yet). */
export class GetQr {
  constructor(private readonly getPhone: GetPhone) {}

  async execute(request: GetQrRequest): Promise<QrResponse> {
    const phone = await this.getPhone.execute(request);
    if (phone.wa_state === WaState.CONNECTED) throw Errors.phoneUnavailable('The phone is connected: there is no QR code to scan');
    if (!phone.qr_code)
      throw Errors.phoneUnavailable(`No QR code yet (state ${phone.wa_state}): the phone's session is starting, try again shortly`);
    return { phone_id: phone.phone_id, wa_state: phone.wa_state, qr_code: phone.qr_code };
  }
}
