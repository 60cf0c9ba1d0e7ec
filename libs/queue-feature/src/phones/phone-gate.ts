import { Errors, type PhoneDirectory, type RequestContext } from '@mapi/contracts';
import type { SessionPort } from '../worker/send-processor';

/** How long a send waits for the phone's session to say whether the chat's window is open (then it is queued). */
const WINDOW_CHECK_MS = 300;

/** The phone an operation acts on, and whether it can act now (the phones service says which phones exist and their state). */
export class PhoneGate {
  constructor(
    private readonly directory: PhoneDirectory,
    private readonly sessions: SessionPort,
  ) {}

  /**
   * The phone a purge acts on. Without x-phone the spec leaves it open; purging a phone the caller
   * did not clearly name is never done: a token scoped to exactly one phone means that phone,
   * anything else is a 422 asking for x-phone.
   */
  purgeTarget(ctx: RequestContext): string {
    if (ctx.phone) return ctx.phone.phone_id;
    if (ctx.phone_scope?.length === 1) return ctx.phone_scope[0];
    throw Errors.validation(
      {
        'x-phone': {
          message: 'x-phone is required: name the phone whose queue to purge (only a token scoped to one phone may omit it)',
          value: null,
        },
      },
      'x-phone is required to purge a queue',
    );
  }

  /**
   * A free-form message the phone's network would refuse now (a Cloud API phone's 24-hour window known
   * closed) is the spec's 422 at once, naming the rule. Asked of the phone's session for at most
   * WINDOW_CHECK_MS: no session, no answer in time or any other answer lets the send be queued (the
   * job is then refused by the connector, or by Meta, with the same reason).
   */
  async requireOpenWindow(phoneId: string, chatId: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), WINDOW_CHECK_MS)));
    const answer = await Promise.race([this.sessions.send(phoneId, { cmd: 'send-window', chat_id: chatId }), late]);
    clearTimeout(timer);
    if (typeof answer === 'object' && !answer.ok && answer.reason === 'refused')
      throw Errors.validation({ 'body.chat_id': { message: answer.message, value: chatId } }, answer.message);
  }

  /** Spec 4.5/7: 401 when the phone is not the organization's (or deleted); 400 when not connected or unreachable. */
  async requireConnected(ctx: RequestContext, phoneId: string): Promise<void> {
    const [phone] = await this.directory({ org_id: ctx.org_id, phone_ids: [phoneId], connected: false });
    if (!phone) throw Errors.unauthorized('The phone is not accessible with this token');
    if (phone.wa_state !== 'CONNECTED') throw Errors.phoneUnavailable(`The phone is not connected (${phone.wa_state})`);
    const ping = await this.sessions.send(phoneId, { cmd: 'ping' });
    if (ping === 'no-session') throw Errors.phoneUnavailable("The phone's server is unreachable: its session is not running");
  }
}
