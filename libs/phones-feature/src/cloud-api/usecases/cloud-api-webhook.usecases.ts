import type { CloudApiCallbackRequest, CloudApiVerifyRequest } from '@mapi/contracts';
import type { CloudApiWebhook } from '../cloud-api-webhook';

/** GET /cloud-api/webhook/{phone_id}: Meta's handshake, answered with hub.challenge (sent as text by the gateway). */
export class VerifyCloudApiWebhook {
  constructor(private readonly webhook: CloudApiWebhook) {}

  execute({ params, query }: CloudApiVerifyRequest): Promise<string> {
    return this.webhook.verify(params.phone_id, query);
  }
}

/** POST /cloud-api/webhook/{phone_id}: a signed callback, answered once its events are in the ingest stream. */
export class ReceiveCloudApiWebhook {
  constructor(private readonly webhook: CloudApiWebhook) {}

  async execute({ params, raw_body, headers }: CloudApiCallbackRequest): Promise<{ received: true; events: number }> {
    const events = await this.webhook.receive(params.phone_id, raw_body, headers?.['x-hub-signature-256']);
    return { received: true, events };
  }
}
