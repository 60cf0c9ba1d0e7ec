import { Errors, type RequestContext } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import type { SessionPort } from '../worker/send-processor';

/**
 * The phone an operation acts on, and whether it can act now. The phones table is read directly
 * (as the chats service's phone choice does): one indexed row, no extra hop.
 */
export class PhoneGate {
  constructor(
    private readonly prisma: PrismaClient,
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
      { 'x-phone': { message: 'x-phone is required: name the phone whose queue to purge (only a token scoped to one phone may omit it)', value: null } },
      'x-phone is required to purge a queue',
    );
  }

  /** Spec 4.5/7: 401 when the phone is not the organization's (or deleted); 400 when not connected or unreachable. */
  async requireConnected(ctx: RequestContext, phoneId: string): Promise<void> {
    const rows = await this.prisma.$queryRaw<{ wa_state: string }[]>`
      SELECT wa_state FROM phones WHERE phone_id = ${phoneId} AND org_id = ${ctx.org_id}::uuid AND deleted_at IS NULL`;
    if (!rows.length) throw Errors.unauthorized('The phone is not accessible with this token');
    if (rows[0].wa_state !== 'CONNECTED') throw Errors.phoneUnavailable(`The phone is not connected (${rows[0].wa_state})`);
    const ping = await this.sessions.send(phoneId, { cmd: 'ping' });
    if (ping === 'no-session') throw Errors.phoneUnavailable('The phone\'s server is unreachable: its session is not running');
  }

  /** Sending needs only a phone of the organization that still exists: messages wait for a disconnected phone. */
  async requireExists(ctx: RequestContext, phoneId: string): Promise<void> {
    const rows = await this.prisma.$queryRaw<{ n: number }[]>`
      SELECT 1 AS n FROM phones WHERE phone_id = ${phoneId} AND org_id = ${ctx.org_id}::uuid AND deleted_at IS NULL`;
    if (!rows.length) throw Errors.unauthorized('The phone is not accessible with this token');
  }
}
