import { Errors, sessionSubject, type SessionAnswer, type SessionCommand } from '@mapi/contracts';
import { JSONCodec, type NatsConnection } from 'nats';

const codec = JSONCodec<SessionCommand | SessionAnswer>();

/** Sends a command to whichever phones replica runs the phone's session right now. */
export class SessionCommands {
  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly timeoutMs = 5_000,
  ) {}

  /** The session's answer, or 'no-session' when no replica runs it (the phone's server is unreachable). */
  async send(phoneId: string, cmd: SessionCommand['cmd'] | SessionCommand): Promise<SessionAnswer | 'no-session'> {
    const command = (typeof cmd === 'string' ? { cmd } : cmd) as SessionCommand;
    try {
      const msg = await this.nc.request(sessionSubject(this.namespace, phoneId), codec.encode(command), { timeout: this.timeoutMs });
      return codec.decode(msg.data) as SessionAnswer;
    } catch {
      return 'no-session';
    }
  }

  /** Like send, but a missing session or a disconnected phone is the spec's 400 ERROR. */
  async require(phoneId: string, cmd: SessionCommand['cmd'] | SessionCommand): Promise<SessionAnswer & { ok: true }> {
    const answer = await this.send(phoneId, cmd);
    if (answer === 'no-session') throw Errors.phoneUnavailable('The phone\'s server is unreachable: its session is not running');
    if (!answer.ok) throw Errors.phoneUnavailable(answer.reason === 'disconnected' ? 'The phone is disconnected' : `The phone's session failed: ${answer.message}`);
    return answer;
  }
}
