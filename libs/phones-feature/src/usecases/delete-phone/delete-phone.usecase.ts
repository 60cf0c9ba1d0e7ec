import type { DeletePhoneRequest } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { writeEvents, type SessionCommands } from '@mapi/events';
import { mapPhone } from '../../phones/map-phone';
import { requirePhone } from '../../phones/require-phone';

/** DELETE /phones/delete: deletes the phone (soft: its messages stay) and logs its session out. */
export class DeletePhone {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly sessions: SessionCommands,
  ) {}

  async execute({ ctx }: DeletePhoneRequest): Promise<null> {
    const phoneId = requirePhone(ctx);
    await this.sessions.send(phoneId, 'logout');
    await this.prisma.$transaction(async (tx) => {
      const row = await tx.phone.update({
        where: { phone_id: phoneId, org_id: ctx.org_id },
        data: { deleted_at: new Date(), is_ready: false, wa_state: 'LOGGED_OUT', updated_at: new Date() },
      });
      await writeEvents(tx, [{ type: 'org.phone.disconnected', org_id: ctx.org_id, phone_id: phoneId, data: mapPhone(row) }]);
    });
    return null;
  }
}
