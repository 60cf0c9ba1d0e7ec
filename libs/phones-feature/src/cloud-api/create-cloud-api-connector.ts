import type { PrismaClient } from '@mapi/db';
import type { Logger } from '@mapi/platform';
import type { PhoneConnector } from '../connector/phone-connector';
import { CloudApiConnector } from './cloud-api-connector';
import { CallbackLimit } from './callback-limit';
import { CloudApiStore } from './cloud-api-store';
import { CloudApiWebhook, type IngestSink } from './cloud-api-webhook';
import type { CloudApiConfig } from './config';
import { CustomerWindows } from './customer-windows';
import { GraphClient } from './graph-client';
import { ReceivedMediaQueue, type MediaSettings } from './received-media';
import { SentMessages } from './sent-messages';

export interface CloudApiParts {
  store: CloudApiStore;
  sent: SentMessages;
  graph: GraphClient;
  media: ReceivedMediaQueue;
  windows: CustomerWindows;
  /** Meta's webhook for every Cloud API phone, publishing to `ingest` (rate-limited per phone). */
  webhook(ingest: IngestSink): CloudApiWebhook;
  /** The session of a phone of connector `cloud_api`; null when CLOUD_API_SECRETS_KEY is not set (the phone does not start). */
  connector(phone: { phone_id: string }): PhoneConnector | null;
}

/** The Cloud API connector's parts, shared by the sessions, the webhook and the phone creation. */
export function cloudApiParts(deps: {
  prisma: PrismaClient;
  config: CloudApiConfig;
  /** Where received files go (the media storage, as Baileys' received media); null: messages are handed on without them. */
  media: MediaSettings | null;
  logger: Logger;
}): CloudApiParts {
  const store = new CloudApiStore(deps.prisma, deps.config.secretsKey);
  const sent = new SentMessages(deps.prisma);
  const graph = new GraphClient(deps.config.graphUrl, deps.config.timeoutMs);
  const media = new ReceivedMediaQueue(deps.prisma, deps.media, graph, deps.logger);
  const windows = new CustomerWindows(deps.prisma);
  const limit = new CallbackLimit(deps.config.callbackRatePerSecond);
  return {
    store,
    sent,
    graph,
    media,
    windows,
    webhook: (ingest) => new CloudApiWebhook(store, sent, media, ingest, deps.logger, { windows, limit }),
    connector: (phone) =>
      store.configured
        ? new CloudApiConnector(phone.phone_id, {
            store,
            sent,
            graph,
            media,
            windows,
            logger: deps.logger,
            retryMs: deps.config.retryMs,
            mediaPollMs: deps.config.mediaPollMs,
          })
        : null,
  };
}
