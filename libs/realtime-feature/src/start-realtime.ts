import type { Server as HttpServer } from 'node:http';
import type { Logger } from '@mapi/platform';
import type { NatsConnection } from 'nats';
import { loadRealtimeConfig, type RealtimeConfig } from './config';
import { EventStream } from './event-stream';
import type { PhoneLookup, TokenAuthenticator } from './handshake';
import type { CopiesInReach } from './member-reach';
import { RealtimeServer } from './realtime-server';

export interface RealtimeOptions {
  auth: TokenAuthenticator;
  phones: PhoneLookup;
  nc: NatsConnection;
  namespace: string;
  logger: Logger;
  /** A member's reach over chats (the chats service's chats.v1.chat.copies-in-reach). */
  copiesInReach?: CopiesInReach;
  config?: RealtimeConfig;
}

export interface Realtime {
  server: RealtimeServer;
  /** Disconnects every socket and stops reading the stream; call before closing the HTTP server. */
  close(): Promise<void>;
}

/** Serves realtime events on `httpServer` (the gateway's): socket.io fed by this replica's own stream reader. */
export async function startRealtime(httpServer: HttpServer, options: RealtimeOptions): Promise<Realtime> {
  const config = options.config ?? loadRealtimeConfig();
  const server = new RealtimeServer(httpServer, {
    auth: options.auth,
    phones: options.phones,
    config,
    logger: options.logger,
    copiesInReach: options.copiesInReach,
    memberReachTtlMs: config.REALTIME_MEMBER_REACH_TTL_MS,
  });
  const stream = new EventStream(options.nc, options.namespace, (event) => server.deliver(event), options.logger);
  await stream.start();
  return {
    server,
    close: async () => {
      await server.close();
      await stream.stop();
    },
  };
}
