import { previousAttributes, type PhoneEventName } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { writeEvents } from '@mapi/events';
import type { ConnectionUpdate } from '../connector/phone-connector';
import { mapPhone } from '../phones/map-phone';

const EVENT_FOR_STATE: Record<string, PhoneEventName> = {
  QR: 'org.phone.qr',
  CONNECTED: 'org.phone.connected',
  DISCONNECTED: 'org.phone.disconnected',
  UNREACHABLE: 'org.phone.disconnected',
  LOGGED_OUT: 'org.phone.disconnected',
  BANNED: 'org.phone.disconnected',
};

/** Records a connection change on the phone and its event, in one transaction. */
export class PhoneStateUpdater {
  constructor(private readonly prisma: PrismaClient) {}

  async apply(orgId: string, phoneId: string, update: ConnectionUpdate): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      // Locked until the commit, so previous_attributes are what this change replaced.
      await tx.$queryRaw`SELECT 1 FROM phones WHERE org_id = ${orgId}::uuid AND phone_id = ${phoneId} FOR UPDATE`;
      const current = await tx.phone.findFirst({ where: { org_id: orgId, phone_id: phoneId } });
      if (!current) return;
      const connected = update.state === 'CONNECTED';
      const row = await tx.phone.update({
        where: { phone_id: phoneId, org_id: orgId },
        data: {
          wa_state: update.state,
          is_ready: connected,
          qr_code: update.state === 'QR' ? (update.qr ?? null) : null,
          ...(update.number ? { org_phone: `${update.number}@c.us` } : {}),
          ...(connected && !current.first_connected_at ? { first_connected_at: new Date() } : {}),
          updated_at: new Date(),
        },
      });
      const type = EVENT_FOR_STATE[update.state] ?? 'org.phone.updated';
      const phone = mapPhone(row);
      await writeEvents(tx, [
        { type, org_id: orgId, phone_id: phoneId, data: phone, previous: previousAttributes(mapPhone(current), phone) },
      ]);
    });
  }
}
