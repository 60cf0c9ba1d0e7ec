import { Errors, HttpReply, type Phone, type RequestContext } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { writeEvents, type SessionCommands } from '@mapi/events';
import { mapPhone } from '../phones/map-phone';
import type { PhoneRepository } from '../phones/phone-repository';
import { requirePhone } from './phone-queries.usecase';

/** POST /phones/create, PATCH /phones/update, restart, reset, delete and resync (spec 4.6). */
export class PhoneCommands {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly phones: PhoneRepository,
    private readonly sessions: SessionCommands,
    private readonly defaultConnector: string,
  ) {}

  /** A new phone slot; its session starts within a scan interval and shows a QR. Unscoped tokens only. */
  async create(ctx: RequestContext, body: { phone_name?: string } | undefined): Promise<HttpReply<Phone>> {
    if (ctx.phone_scope) throw Errors.unauthorized('A token scoped to phones cannot create phones');
    const row = await this.phones.create(ctx.org_id, { phone_name: body?.phone_name, connector: this.defaultConnector });
    return new HttpReply(201, mapPhone(row));
  }

  async update(ctx: RequestContext, body: { phone_name?: string; phone_image?: string | null; labels?: string[] }): Promise<Phone> {
    const phoneId = requirePhone(ctx);
    return this.prisma.$transaction(async (tx) => {
      const data: Prisma.PhoneUpdateManyMutationInput = { ...body, updated_at: new Date() };
      const { count } = await tx.phone.updateMany({ where: { org_id: ctx.org_id, phone_id: phoneId, deleted_at: null }, data });
      if (!count) throw Errors.unauthorized(`Phone ${phoneId} is not accessible with this token`);
      const phone = mapPhone(await tx.phone.findUniqueOrThrow({ where: { phone_id: phoneId } }));
      await writeEvents(tx, [{ type: 'org.phone.updated', org_id: ctx.org_id, phone_id: phoneId, data: phone }]);
      return phone;
    });
  }

  /** Restarts the session; when none runs, the next scan starts it anyway. */
  async restart(ctx: RequestContext): Promise<null> {
    await this.sessions.send(requirePhone(ctx), 'restart');
    return null;
  }

  /** Logs the phone out: it goes back to QR. Needs its session to be running (400 otherwise). */
  async reset(ctx: RequestContext): Promise<null> {
    await this.sessions.require(requirePhone(ctx), 'logout');
    return null;
  }

  /** Deletes the phone (soft: its messages stay) and logs its session out. */
  async delete(ctx: RequestContext): Promise<null> {
    const phoneId = requirePhone(ctx);
    await this.sessions.send(phoneId, 'logout');
    await this.prisma.$transaction(async (tx) => {
      const row = await tx.phone.update({ where: { phone_id: phoneId, org_id: ctx.org_id }, data: { deleted_at: new Date(), is_ready: false, wa_state: 'LOGGED_OUT', updated_at: new Date() } });
      await writeEvents(tx, [{ type: 'org.phone.disconnected', org_id: ctx.org_id, phone_id: phoneId, data: mapPhone(row) }]);
    });
    return null;
  }

  /** Pairing by code: only while the phone waits to be paired; 400 ERROR otherwise. */
  async pairingCode(ctx: RequestContext, body: { number: string }): Promise<{ phone_id: string; pairing_code: string }> {
    const phoneId = requirePhone(ctx);
    const answer = await this.sessions.send(phoneId, { cmd: 'pairing-code', number: body.number });
    if (answer === 'no-session') throw Errors.phoneUnavailable('The phone\'s server is unreachable: its session is not running');
    if (!answer.ok || !answer.pairing_code) throw Errors.phoneUnavailable(`No pairing code: ${answer.ok ? 'the network gave none' : answer.message}`);
    return { phone_id: phoneId, pairing_code: answer.pairing_code };
  }

  /** Spec 4.6: triggers a full resync; 400 ERROR when the phone is disconnected or its server unreachable. */
  async resync(ctx: RequestContext): Promise<null> {
    await this.sessions.require(requirePhone(ctx), 'resync');
    return null;
  }
}
