import { z } from 'zod';

const id = (name: string) => z.string().regex(/^[0-9]{1,30}$/, `${name} must be Meta's numeric id`);
const secret = (name: string, max: number) =>
  z.string().min(8, `${name} is at least 8 characters`).max(max, `${name} is at most ${max} characters`);

/**
 * What connects a phone to the WhatsApp Business Cloud API (connector `cloud_api`, docs/services/cloud-api.md):
 * taken by POST /phones/create, stored encrypted, never logged and never answered back.
 */
export const CloudApiCredentialsSchema = z.strictObject({
  /** Meta's id of the number (WhatsApp Manager, API setup): not the number itself. */
  phone_number_id: id('phone_number_id'),
  /** The WhatsApp Business Account the number belongs to. */
  waba_id: id('waba_id'),
  /** A system user's (permanent) access token with whatsapp_business_messaging. */
  access_token: secret('access_token', 1024),
  /** The Meta app's secret: the webhook's X-Hub-Signature-256 is checked with it. */
  app_secret: secret('app_secret', 256),
  /** The verify token typed in the app's webhook settings (answered back in the hub.challenge handshake). */
  verify_token: secret('verify_token', 256),
});
export type CloudApiCredentials = z.infer<typeof CloudApiCredentialsSchema>;
