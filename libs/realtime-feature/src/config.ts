import { z } from 'zod';

const int = (def: number, min = 0) => z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(min).default(def));

/** Settings of the realtime (socket.io) endpoint; every limit is per gateway replica. */
export const RealtimeConfigSchema = z.object({
  /** Open sockets one replica accepts; further handshakes are refused (429-equivalent). */
  REALTIME_MAX_CONNECTIONS: int(10_000, 1),
  /** Open sockets one API token may hold on one replica. */
  REALTIME_MAX_CONNECTIONS_PER_TOKEN: int(100, 1),
  /** Packets waiting to be written to one socket before it is disconnected as a slow consumer. */
  REALTIME_MAX_BUFFERED_EVENTS: int(1_000, 1),
  /** How often an open socket's token and phone are checked again (0: never); a revoked token is disconnected. */
  REALTIME_REAUTH_INTERVAL_MS: int(60_000),
  /** A member socket's answers about which chats it may see are cached this long (a grant or denial reaches open sockets within it). */
  REALTIME_MEMBER_REACH_TTL_MS: int(5_000),
});

export type RealtimeConfig = z.infer<typeof RealtimeConfigSchema>;

export function loadRealtimeConfig(env: NodeJS.ProcessEnv = process.env): RealtimeConfig {
  const parsed = RealtimeConfigSchema.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid realtime configuration: ${issues}`);
  }
  return parsed.data;
}
