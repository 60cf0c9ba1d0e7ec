import type { PrismaClient } from '@mapi/db';
import { createStorage } from '@mapi/storage';
import makeWASocket, { Browsers, makeCacheableSignalKeyStore } from 'baileys';
import type { Logger } from 'pino';
import type { PhoneConnector } from '../connector/phone-connector';
import { AuthCipher } from './auth-cipher';
import { BaileysAuthStore } from './auth-state-store';
import { BaileysConnector, type SocketFactory } from './baileys-connector';
import type { BaileysConfig } from './config';
import { loadOutgoingMedia } from './outgoing-content';
import { ReceivedMediaStore } from './received-media';
import { PrismaSentMessageLog } from './sent-message-log';
import { PrismaSessionStateStore } from './session-state-store';

/**
 * The connector factory for phones with connector `baileys`: real sockets on the library, auth state
 * in Postgres, received media in the media storage, LID map and history anchors in Postgres. Null (the phone is not started, with a warning)
 * when BAILEYS_AUTH_KEY is unset: the auth state is never stored unencrypted.
 */
export function baileysConnectorFactory(deps: {
  prisma: PrismaClient;
  config: BaileysConfig;
  logger: Logger;
}): (phone: { phone_id: string; org_id: string }) => PhoneConnector | null {
  const { prisma, config, logger } = deps;
  if (!config.authKey) {
    return (phone) => {
      logger.warn({ phone_id: phone.phone_id }, 'BAILEYS_AUTH_KEY is not set: baileys phones do not start');
      return null;
    };
  }
  const auth = new BaileysAuthStore(prisma, new AuthCipher(config.authKey));
  const sent = new PrismaSentMessageLog(prisma);
  const sessionState = new PrismaSessionStateStore(prisma);
  const media = new ReceivedMediaStore(createStorage(config.storage), config.mediaBaseUrl, config.mediaMaxBytes, logger);
  const libraryLogger = logger.child({ module: 'baileys' }, { level: 'warn' });
  const makeSocket: SocketFactory = (state, recent) =>
    makeWASocket({
      auth: { creds: state.creds, keys: makeCacheableSignalKeyStore(state.keys, libraryLogger as never) },
      logger: libraryLogger as never,
      browser: Browsers.ubuntu('Chrome'),
      printQRInTerminal: false,
      markOnlineOnConnect: false,
      syncFullHistory: true,
      // Retries of a message the recipient could not decrypt need its content.
      getMessage: async (key) => (key.id ? (recent(key.id)?.message ?? undefined) : undefined),
    });
  return (phone) =>
    new BaileysConnector(phone.phone_id, {
      auth,
      makeSocket,
      sent,
      loadMedia: (m) => loadOutgoingMedia(m, config.mediaMaxBytes),
      storeMedia: (msg, chatId, reupload) => media.store(msg, phone.org_id, chatId, reupload),
      mediaConcurrency: config.mediaConcurrency,
      historyMedia: config.historyMedia,
      state: {
        load: () => sessionState.load(phone.org_id, phone.phone_id),
        saveLids: (pairs) => sessionState.saveLids(phone.org_id, phone.phone_id, pairs),
        saveAnchors: (anchors) => sessionState.saveAnchors(phone.org_id, phone.phone_id, anchors),
        clear: () => sessionState.clear(phone.org_id, phone.phone_id),
      },
      logger: logger.child({ phone_id: phone.phone_id, connector: 'baileys' }),
    });
}
