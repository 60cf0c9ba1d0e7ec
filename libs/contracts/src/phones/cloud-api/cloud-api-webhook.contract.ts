import { z } from 'zod';
import { defineRoute, type RouteContract } from '../../http/define-route';
import { defineRpc, type RpcRequest } from '../../rpc/define-rpc';
import { ListCloudApiTemplatesRoute } from './cloud-api-templates.contract';

/**
 * Meta's webhook for Cloud API phones (docs/services/cloud-api.md): public routes, one callback URL
 * per phone (`/v1/cloud-api/webhook/{phone_id}`). GET is the subscription handshake; POST carries the
 * messages and statuses, signed with the app secret (X-Hub-Signature-256 over the raw body).
 */
export const CloudApiWebhookParams = z.object({ phone_id: z.string().min(1).max(200) });

export const CloudApiVerifyQuery = z.object({
  'hub.mode': z.string().max(100),
  'hub.verify_token': z.string().max(256),
  'hub.challenge': z.string().min(1).max(256),
});

/** The envelope of every callback; what is inside `entry` is read by the service once the signature is checked. */
export const CloudApiCallbackBody = z.object({ object: z.string().max(100), entry: z.array(z.object({}).loose()).max(1000) }).loose();

export const CloudApiVerifyRpc = defineRpc({
  subject: 'phones.v1.cloud-api.webhook-verify',
  service: 'phones',
  request: z.object({ params: CloudApiWebhookParams, query: CloudApiVerifyQuery }).loose(),
  response: z.string(),
});

export const CloudApiCallbackRpc = defineRpc({
  subject: 'phones.v1.cloud-api.webhook-receive',
  service: 'phones',
  request: z
    .object({
      params: CloudApiWebhookParams,
      body: CloudApiCallbackBody,
      headers: z.object({ 'x-hub-signature-256': z.string().optional() }).loose().optional(),
      /** The body as it arrived, base64: the signature is over these bytes. */
      raw_body: z.string(),
    })
    .loose(),
  response: z.object({ received: z.literal(true), events: z.number().int().min(0) }),
});

export const CLOUD_API_ROUTES: readonly RouteContract[] = [
  ListCloudApiTemplatesRoute,
  defineRoute({
    operationId: 'verifyCloudApiWebhook',
    method: 'GET',
    path: '/cloud-api/webhook/{phone_id}',
    tag: 'phones',
    summary: "Meta's webhook handshake for a Cloud API phone (answers hub.challenge as text)",
    description:
      'Public: called by Meta when the callback URL is saved. With hub.mode=subscribe and the verify token given at the ' +
      "phone's creation, answers hub.challenge as text/plain; a wrong token is 403, a phone that is not a Cloud API phone 404.",
    params: CloudApiWebhookParams,
    query: CloudApiVerifyQuery,
    phone: 'none',
    auth: 'public',
    text: true,
    rpc: CloudApiVerifyRpc,
    successStatus: 200,
    response: z.string(),
  }),
  defineRoute({
    operationId: 'receiveCloudApiWebhook',
    method: 'POST',
    path: '/cloud-api/webhook/{phone_id}',
    tag: 'phones',
    summary: "Meta's callbacks for a Cloud API phone: messages and statuses",
    description:
      'Public: X-Hub-Signature-256 (HMAC-SHA256 of the raw body with the app secret) is required; missing is 401, wrong 403. ' +
      'Answered once the events are durably queued for the chats store; a repeated callback counts once.',
    params: CloudApiWebhookParams,
    body: CloudApiCallbackBody,
    headers: ['x-hub-signature-256'],
    rawBody: true,
    phone: 'none',
    auth: 'public',
    rpc: CloudApiCallbackRpc,
    successStatus: 200,
    response: z.object({ received: z.literal(true), events: z.number().int().min(0) }),
  }),
];

export type CloudApiVerifyRequest = RpcRequest<typeof CloudApiVerifyRpc>;
export type CloudApiCallbackRequest = RpcRequest<typeof CloudApiCallbackRpc>;
