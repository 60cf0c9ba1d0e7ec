import { PHONE_DIGITS } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { AdminError } from '../../admin-error';
import { newPhoneId } from '../../shared/random-ids';
import { toPhoneView, type PhoneView } from '../../shared/phone-view';
import { requireName, requireOrganization } from '../../shared/validation';

export interface CreatePhoneCommand {
  orgId: string;
  /** Country code + number, digits only. */
  digits: string;
  name?: string;
}

/** Registers a phone of an organization (`<digits>@c.us`) under a new `phone-<16>` id. */
export class CreatePhone {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(command: CreatePhoneCommand): Promise<PhoneView> {
    const digits = (command.digits ?? '').trim();
    if (!PHONE_DIGITS.test(digits)) {
      throw new AdminError(
        `phone number "${digits}" is not valid: use country code + number, 6 to 20 digits, no spaces or symbols (e.g. 14155550100)`,
      );
    }
    const name = command.name === undefined ? null : requireName(command.name, 'phone name');
    const org = await requireOrganization(this.prisma, command.orgId);
    const orgPhone = `${digits}@c.us`;
    const existing = await this.prisma.phone.findFirst({
      where: { org_id: org.id, org_phone: orgPhone, deleted_at: null },
      select: { phone_id: true },
    });
    if (existing) throw new AdminError(`organization ${org.id} already has phone ${digits} (${existing.phone_id})`);
    const phone = await this.prisma.phone.create({
      data: { phone_id: newPhoneId(), org_id: org.id, org_phone: orgPhone, phone_name: name },
    });
    return toPhoneView(phone);
  }
}
