import { CloudApiCallbackRpc, CloudApiVerifyRpc, ListCloudApiTemplatesRpc } from '@mapi/contracts';
import { rpcHandler } from '@mapi/platform';
import type { CloudApiStore } from './cloud-api-store';
import type { CloudApiWebhook } from './cloud-api-webhook';
import type { GraphClient } from './graph-client';
import { ReceiveCloudApiWebhook, VerifyCloudApiWebhook } from './usecases/cloud-api-webhook.usecases';
import { ListCloudApiTemplates } from './usecases/list-cloud-api-templates.usecase';

export interface CloudApiDeps {
  webhook: CloudApiWebhook;
  store: CloudApiStore;
  graph: GraphClient;
}

const serve = rpcHandler<CloudApiDeps>();

/** Meta's webhook for Cloud API phones and their templates, served by every phones replica (docs/services/cloud-api.md). */
export const CLOUD_API_HANDLERS = [
  serve(CloudApiVerifyRpc, (d) => new VerifyCloudApiWebhook(d.webhook)),
  serve(CloudApiCallbackRpc, (d) => new ReceiveCloudApiWebhook(d.webhook)),
  serve(ListCloudApiTemplatesRpc, (d) => new ListCloudApiTemplates(d.store, d.graph)),
];
