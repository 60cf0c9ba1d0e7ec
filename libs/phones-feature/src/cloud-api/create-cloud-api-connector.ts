import type { PrismaClient } from '@mapi/db';
import type { Logger } from '@mapi/platform';
import type { PhoneConnector } from '../connector/phone-connector';
import { CloudApiConnector } from './cloud-api-connector';
import { CloudApiStore } from './cloud-api-store';
import type { CloudApiConfig } from './config';
import { GraphClient } from './graph-client';
import { ReceivedMediaQueue, type MediaSettings } from './received-media';
import { SentMessages } from './sent-messages';

export interface CloudApiParts {
  store: CloudApiStore;
  sent: SentMessages;
  graph: GraphClient;
  media: ReceivedMediaQueue;
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
  return {
    store,
    sent,
    graph,
    media,
    connector: (phone) =>
      store.configured
        ? new CloudApiConnector(phone.phone_id, {
            store,
            sent,
            graph,
            media,
            logger: deps.logger,
            retryMs: deps.config.retryMs,
            mediaPollMs: deps.config.mediaPollMs,
          })
        : null,
  };
}
