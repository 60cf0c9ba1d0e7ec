import {
  ErrorCode,
  Errors,
  ServiceError,
  readSessionAnswer,
  sessionSubject,
  type SessionAnswer,
  type SessionCommand,
  type SimpleSessionCommand,
} from '@mapi/contracts';
import { JSONCodec, type NatsConnection } from 'nats';

const codec = JSONCodec<unknown>();

/** Sends a command (SessionCommandSchema) to whichever phones replica runs the phone's session right now. */
export class SessionCommands {
  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly timeoutMs = 5_000,
  ) {}

  /**
   * The session's answer (read with SessionAnswerSchema: a malformed one is an error answer), or
   * 'no-session' when no replica runs it (the phone's server is unreachable).
   */
  async send(phoneId: string, cmd: SimpleSessionCommand['cmd'] | SessionCommand): Promise<SessionAnswer | 'no-session'> {
    const command: SessionCommand = typeof cmd === 'string' ? { cmd } : cmd;
    let reply: Uint8Array;
    try {
      reply = (await this.nc.request(sessionSubject(this.namespace, phoneId), codec.encode(command), { timeout: this.timeoutMs })).data;
    } catch {
      return 'no-session';
    }
    try {
      return readSessionAnswer(codec.decode(reply));
    } catch {
      return readSessionAnswer(undefined); // not JSON
    }
  }

  /**
   * Like send, but a missing session or a disconnected phone is the spec's 400 ERROR; the network's rate
   * limits (`throttled`) a 429; a refusal for good (`refused`) what `onRefused` makes of it when given.
   */
  async require(
    phoneId: string,
    cmd: SimpleSessionCommand['cmd'] | SessionCommand,
    onRefused?: (message: string) => Error,
  ): Promise<SessionAnswer & { ok: true }> {
    const answer = await this.send(phoneId, cmd);
    if (answer === 'no-session') throw Errors.phoneUnavailable("The phone's server is unreachable: its session is not running");
    if (!answer.ok && answer.reason === 'unavailable')
      throw Errors.unavailable(`Temporarily unavailable: the phone's session cannot reach its database; retry shortly`);
    if (!answer.ok && answer.reason === 'throttled')
      throw new ServiceError(ErrorCode.RATE_LIMIT_ERROR, 429, `The network is throttling this phone; retry shortly: ${answer.message}`);
    if (!answer.ok && answer.reason === 'refused' && onRefused) throw onRefused(answer.message);
    if (!answer.ok)
      throw Errors.phoneUnavailable(
        answer.reason === 'disconnected' ? 'The phone is disconnected' : `The phone's session failed: ${answer.message}`,
      );
    return answer;
  }
}
