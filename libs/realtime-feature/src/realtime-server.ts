import type { ObservableResult } from '@opentelemetry/api';
import type { Server as HttpServer } from 'node:http';
import type { DomainEvent } from '@mapi/events';
import { METRICS, metricOptions } from '@mapi/contracts';
import { meter, type Logger } from '@mapi/platform';
import { Server, type Socket } from 'socket.io';
import type { RealtimeConfig } from './config';
import { ConnectionLimits } from './connection-limits';
import { HandshakeRefusal, authorizeHandshake, type PhoneLookup, type TokenAuthenticator } from './handshake';
import { MemberReachFilter, type CopiesInReach } from './member-reach';
import { memberRoom, roomsFor, roomsOf, type Subscription } from './subscription';

export interface RealtimeDeps {
  auth: TokenAuthenticator;
  phones: PhoneLookup;
  config: RealtimeConfig;
  logger: Logger;
  /** A member's reach (the chats service's answer); without it, member sockets are refused. */
  copiesInReach?: CopiesInReach;
  /** A member socket's reach answers are cached per chat this long. */
  memberReachTtlMs?: number;
  /** How long a socket being dropped gets to read its refusal before the connection is cut. */
  dropGraceMs?: number;
}

interface SocketData {
  sub: Subscription;
  headers: Record<string, string | string[] | undefined>;
  dropping?: boolean;
  /** Member sockets only: their events, checked in arrival order. */
  reach?: MemberReachFilter;
}

type RealtimeSocket = Socket<Record<string, never>, Record<string, (...args: unknown[]) => void>, Record<string, never>, SocketData>;

/**
 * engine.io's queue of packets not yet handed to the transport: it grows while the client does not
 * read (the websocket is not writable until the previous batch is written). Private in its typings.
 */
const unsent = (socket: RealtimeSocket) => (socket.conn as unknown as { writeBuffer: unknown[] }).writeBuffer;

/** Metadata sent as the second argument of every event, after the object itself. */
export type EventMeta = Omit<DomainEvent, 'data'>;

/**
 * socket.io on the gateway's HTTP server (path /socket.io, websocket then polling, as the public
 * client connects). A handshake is checked like an HTTP request; a connection joins the rooms of
 * what it may see; `deliver` sends one event, under its catalogue name with the object itself as
 * payload, to the sockets of this replica that may see it, and drops sockets that do not keep up.
 */
export class RealtimeServer {
  readonly io: Server;
  private readonly limits: ConnectionLimits;
  private closing = false;
  private reauthTimer?: NodeJS.Timeout;
  private readonly connectionsGauge = meter().createObservableGauge(
    METRICS.realtimeConnections.name,
    metricOptions(METRICS.realtimeConnections),
  );
  private readonly observeConnections = (result: ObservableResult) => result.observe(this.connections);
  readonly stats = { delivered: 0, dropped_slow: 0, dropped_revoked: 0 };

  constructor(
    httpServer: HttpServer,
    private readonly deps: RealtimeDeps,
  ) {
    const { config } = deps;
    this.limits = new ConnectionLimits(config.REALTIME_MAX_CONNECTIONS, config.REALTIME_MAX_CONNECTIONS_PER_TOKEN);
    this.io = new Server(httpServer, {
      path: '/socket.io',
      transports: ['polling', 'websocket'],
      serveClient: false,
      maxHttpBufferSize: 64 * 1024,
    });
    this.io.use((socket, next) => {
      this.admit(socket as RealtimeSocket).then(
        () => next(),
        (err: Error) => next(err),
      );
    });
    this.io.on('connection', (socket) => this.onConnection(socket as RealtimeSocket));
    // mapi.realtime.connections (GET /metrics of the gateway): this replica's open connections
    this.connectionsGauge.addCallback(this.observeConnections);
    if (config.REALTIME_REAUTH_INTERVAL_MS > 0) {
      this.reauthTimer = setInterval(() => void this.reauthorizeAll(), config.REALTIME_REAUTH_INTERVAL_MS);
      this.reauthTimer.unref();
    }
  }

  get connections(): number {
    return this.limits.open;
  }

  private async admit(socket: RealtimeSocket): Promise<void> {
    if (this.closing) throw new HandshakeRefusal('SERVICE_UNAVAILABLE_ERROR', 503, 'This server is shutting down; reconnect');
    const headers = socket.handshake.headers;
    const sub = await authorizeHandshake(headers, this.deps.auth, this.deps.phones);
    this.limits.acquire(sub.token_id);
    let released = false;
    const release = () => {
      if (!released) this.limits.release(sub.token_id);
      released = true;
    };
    // Whichever comes first: the socket's disconnect, or its connection closing before 'connection'.
    socket.once('disconnect', release);
    socket.conn.once('close', release);
    socket.data.sub = sub;
    if (sub.member) {
      if (!this.deps.copiesInReach)
        throw new HandshakeRefusal('SERVICE_UNAVAILABLE_ERROR', 503, 'Member sessions cannot subscribe here now; retry');
      const ctx = MemberReachFilter.context(sub, sub.member, sub.phone ?? null);
      socket.data.reach = new MemberReachFilter(ctx, this.deps.copiesInReach, this.deps.memberReachTtlMs ?? 5_000, () =>
        this.drop(socket, 'SERVICE_UNAVAILABLE_ERROR', 'Disconnected: could not check which chats this member may see; reconnect'),
      );
    }
    // the cookie too: a console session's socket is re-authenticated by it (it has no bearer token)
    socket.data.headers = { authorization: headers.authorization, cookie: headers.cookie, 'x-phone': headers['x-phone'] };
  }

  private onConnection(socket: RealtimeSocket): void {
    void socket.join(roomsOf(socket.data.sub));
  }

  /** Sends one event to every socket of this replica allowed to see it (socket.io encodes it once). */
  deliver(event: DomainEvent): void {
    const rooms = roomsFor(event);
    const { data, ...meta } = event;
    this.io.to(rooms).emit(event.event_type, data, meta satisfies EventMeta);
    this.stats.delivered += 1;
    this.dropSlowSockets(rooms);
    this.offerToMembers(event, data, meta);
  }

  /** Member sockets of the event's organization: each gets it once their reach allows it, in order. */
  private offerToMembers(event: DomainEvent, data: unknown, meta: EventMeta): void {
    const max = this.deps.config.REALTIME_MAX_BUFFERED_EVENTS;
    for (const id of this.io.sockets.adapter.rooms.get(memberRoom(event.org_id)) ?? []) {
      const socket = this.io.sockets.sockets.get(id) as RealtimeSocket | undefined;
      const reach = socket?.data.reach;
      if (!socket || !reach || socket.data.dropping) continue;
      if (reach.pending + unsent(socket).length > max) {
        this.stats.dropped_slow += 1;
        this.drop(socket, 'SLOW_CONSUMER', `Disconnected: more than ${max} events were waiting to be read by this client`);
        continue;
      }
      reach.offer(event, () => {
        if (!socket.data.dropping) socket.emit(event.event_type, data, meta);
      });
    }
  }

  /** Bounded buffers: a socket whose unsent packets exceed the limit is dropped with a reason. */
  private dropSlowSockets(rooms: string[]): void {
    const max = this.deps.config.REALTIME_MAX_BUFFERED_EVENTS;
    const seen = new Set<string>();
    for (const room of rooms) {
      for (const id of this.io.sockets.adapter.rooms.get(room) ?? []) {
        if (seen.has(id)) continue;
        seen.add(id);
        const socket = this.io.sockets.sockets.get(id) as RealtimeSocket | undefined;
        if (socket && unsent(socket).length > max) {
          this.stats.dropped_slow += 1;
          this.drop(socket, 'SLOW_CONSUMER', `Disconnected: more than ${max} events were waiting to be read by this client`);
        }
      }
    }
  }

  /**
   * Stops sending to the socket, throws away what it did not read, tells it why (`error` event,
   * which the public client logs) and closes; a client that does not read even that is cut off
   * after the grace period, so its memory is released either way.
   */
  private drop(socket: RealtimeSocket, code: string, message: string): void {
    if (socket.data.dropping) return;
    socket.data.dropping = true;
    this.deps.logger.warn({ socket: socket.id, org_id: socket.data.sub?.org_id, code }, `realtime: ${message}`);
    socket.rooms.forEach((room) => void socket.leave(room));
    unsent(socket).length = 0;
    socket.emit('error', { code, message });
    const conn = socket.conn;
    socket.disconnect(true);
    setTimeout(() => {
      const transport = conn.transport as unknown as { socket?: { terminate?: () => void } };
      if (conn.readyState === 'closed') return;
      if (transport.socket?.terminate) transport.socket.terminate();
      else conn.close(true);
    }, this.deps.dropGraceMs ?? 2_000).unref();
  }

  /** Tokens revoked (or phones moved out of scope) since the handshake lose their sockets; a member's changed labels apply. */
  private async reauthorizeAll(): Promise<void> {
    for (const socket of this.io.sockets.sockets.values() as IterableIterator<RealtimeSocket>) {
      if (socket.data.dropping || !socket.data.headers) continue;
      try {
        const sub = await authorizeHandshake(socket.data.headers, this.deps.auth, this.deps.phones);
        if (socket.data.reach && sub.member) socket.data.reach.update(MemberReachFilter.context(sub, sub.member, sub.phone ?? null));
      } catch (err) {
        if (err instanceof HandshakeRefusal && err.data.status < 500) {
          this.stats.dropped_revoked += 1;
          this.drop(socket, err.data.code, err.message);
        }
      }
    }
  }

  /**
   * Refuses new handshakes and disconnects every socket (clients reconnect, to another replica
   * behind the ingress). The HTTP server itself is left to its owner to close.
   */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.reauthTimer);
    this.connectionsGauge.removeCallback(this.observeConnections);
    this.io.disconnectSockets(true);
    this.io.engine.close();
  }
}
