import { Errors, type Phone, type UpdatePhoneRequest } from '@mapi/contracts';
import type { Prisma, PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import { mapPhone } from '../../phones/map-phone';
import { requirePhone } from '../../phones/require-phone';

/** PATCH /phones/update: name, image or labels of the x-phone phone; org.phone.updated in the same transaction. */
export class UpdatePhone {
  constructor(private readonly prisma: PrismaClient) {}

  async execute({ ctx, body }: UpdatePhoneRequest): Promise<Phone> {
    const phoneId = requirePhone(ctx);
    return this.prisma.$transaction(async (tx) => {
      const data: Prisma.PhoneUpdateManyMutationInput = { ...body, updated_at: new Date() };
      const { count } = await tx.phone.updateMany({ where: { org_id: ctx.org_id, phone_id: phoneId, deleted_at: null }, data });
      if (!count) throw Errors.unauthorized(`Phone ${phoneId} is not accessible with this token`);
      const phone = mapPhone(await tx.phone.findUniqueOrThrow({ where: { phone_id: phoneId, org_id: ctx.org_id } }));
      await writeEvents(tx, [{ type: 'org.phone.updated', org_id: ctx.org_id, phone_id: phoneId, data: phone }]);
      return phone;
    });
  }
}
