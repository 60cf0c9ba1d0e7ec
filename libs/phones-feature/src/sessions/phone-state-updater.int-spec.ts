import { createOrg, createPhone, registryPayload, useTestDatabase } from '@mapi/testing';
import { PhoneStateUpdater } from './phone-state-updater';

const t = useTestDatabase('phone_state_updater');

describe('PhoneStateUpdater', () => {
  it('records each connection change with its org.phone.* event, carrying the whole phone object as the registry defines it', async () => {
    const org = await createOrg(t.prisma);
    const phone = await createPhone(t.prisma, org.id, { wa_state: 'UNPAIRED', is_ready: false, org_phone: null });
    const updater = new PhoneStateUpdater(t.prisma);
    await updater.apply(org.id, phone.phone_id, { state: 'QR', qr: 'qr-1' });
    await updater.apply(org.id, phone.phone_id, { state: 'CONNECTED', number: '15550001111' });
    await updater.apply(org.id, phone.phone_id, { state: 'LOGGED_OUT' });
    await updater.apply(org.id, phone.phone_id, { state: 'UNPAIRED' });

    const rows = await t.prisma.outboxEvent.findMany({ where: { org_id: org.id }, orderBy: { seq: 'asc' } });
    expect(rows.map((r) => r.type)).toEqual(['org.phone.qr', 'org.phone.connected', 'org.phone.disconnected', 'org.phone.updated']);
    for (const r of rows) expect(() => registryPayload(r)).not.toThrow();
    expect(rows.map((r) => r.phone_id)).toEqual(rows.map(() => phone.phone_id));
    expect(rows[0].payload).toMatchObject({ phone_id: phone.phone_id, wa_state: 'QR', qr_code: 'qr-1', is_ready: false });
    expect(rows[1].payload).toMatchObject({ wa_state: 'CONNECTED', org_phone: '15550001111@c.us', is_ready: true, qr_code: null });
    // Each says what it replaced (the webhook envelope's previous_attributes).
    expect(rows[0].previous_attributes).toMatchObject({ wa_state: 'UNPAIRED', qr_code: null });
    expect(rows[1].previous_attributes).toMatchObject({ wa_state: 'QR', qr_code: 'qr-1', org_phone: null, is_ready: false });
    expect(rows[1].previous_attributes).not.toHaveProperty('phone_id');
  });
});
