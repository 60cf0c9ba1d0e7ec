import { DisconnectReason } from 'baileys';

/** What to do when the library closes the connection, by the close's status code. */
export type CloseAction =
  /** the phone unlinked this device (or the pairing is unusable): forget the creds, stay logged out */
  | 'logged-out'
  /** the account is banned or restricted (403): stop, surface it */
  | 'banned'
  /** another client took this session over (440): stop rather than fight over it */
  | 'replaced'
  /** the library asks for a new socket at once (515, right after pairing) */
  | 'restart'
  /** anything else (network, timeouts, server errors): reconnect with backoff */
  | 'reconnect';

export function closeActionOf(error: unknown): CloseAction {
  const code = (error as { output?: { statusCode?: number } } | undefined)?.output?.statusCode;
  switch (code) {
    case DisconnectReason.loggedOut:
    case DisconnectReason.multideviceMismatch:
      return 'logged-out';
    case DisconnectReason.forbidden:
      return 'banned';
    case DisconnectReason.connectionReplaced:
      return 'replaced';
    case DisconnectReason.restartRequired:
      return 'restart';
    default:
      return 'reconnect';
  }
}

/** Exponential backoff with jitter: base·2^attempt, capped, ±20 %. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const raw = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 20));
  return Math.round(raw * (0.8 + 0.4 * random()));
}
