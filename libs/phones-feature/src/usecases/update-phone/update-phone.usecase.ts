import { Errors, previousAttributes, type Phone, type UpdatePhoneRequest } from '@mapi/contracts';
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
      // The row is locked until the commit, so the attributes reported as previous are the ones this update replaced.
      await tx.$queryRaw`SELECT 1 FROM phones WHERE org_id = ${ctx.org_id}::uuid AND phone_id = ${phoneId} FOR UPDATE`;
      const before = await tx.phone.findFirst({ where: { org_id: ctx.org_id, phone_id: phoneId, deleted_at: null } });
      if (!before) throw Errors.unauthorized(`Phone ${phoneId} is not accessible with this token`);
      const was = mapPhone(before);
      const data: Prisma.PhoneUpdateManyMutationInput = { ...body, updated_at: new Date() };
      const phone = mapPhone(await tx.phone.update({ where: { phone_id: phoneId, org_id: ctx.org_id }, data }));
      await writeEvents(tx, [
        { type: 'org.phone.updated', org_id: ctx.org_id, phone_id: phoneId, data: phone, previous: previousAttributes(was, phone) },
      ]);
      return phone;
    });
  }
}
