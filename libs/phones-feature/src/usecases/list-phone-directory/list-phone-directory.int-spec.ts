import { createOrg, createPhone, useTestDatabase } from '@mapi/testing';
import { PhoneRepository } from '../../repositories/phone-repository';
import { ListPhoneDirectory } from './list-phone-directory.usecase';

describe('ListPhoneDirectory: phones.v1.directory (integration)', () => {
  const t = useTestDatabase('phone_directory');
  const w: Record<string, any> = {};
  const list = (request: Parameters<ListPhoneDirectory['execute']>[0]) =>
    new ListPhoneDirectory(new PhoneRepository(t.prisma)).execute(request);
  const ids = (rows: { phone_id: string }[]) => rows.map((r) => r.phone_id);

  beforeAll(async () => {
    const p = t.prisma;
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    w.org = await createOrg(p);
    w.other = await createOrg(p);
    w.late = await createPhone(p, w.org.id, { created_at: at(3) });
    w.early = await createPhone(p, w.org.id, { created_at: at(1) });
    w.qr = await createPhone(p, w.org.id, { created_at: at(2), wa_state: 'QR', is_ready: false });
    w.unpaired = await createPhone(p, w.org.id, { created_at: at(0), org_phone: null, wa_state: 'UNPAIRED', is_ready: false });
    w.deleted = await createPhone(p, w.org.id, { created_at: at(0), deleted_at: new Date() });
    w.foreign = await createPhone(p, w.other.id, { created_at: at(0) });
  });

  it("lists the organization's phones oldest first, never deleted ones nor another organization's", async () => {
    const rows = await list({ org_id: w.org.id, connected: false });
    expect(ids(rows)).toEqual([w.unpaired.phone_id, w.early.phone_id, w.qr.phone_id, w.late.phone_id]);
    expect(rows[1]).toEqual({
      phone_id: w.early.phone_id,
      org_phone: w.early.org_phone,
      wa_state: 'CONNECTED',
      created_at: w.early.created_at.toISOString(),
      connector: 'sandbox',
    });
  });

  it("says each phone's connector (the queue paces a Cloud API phone by it)", async () => {
    const cloud = await createPhone(t.prisma, w.other.id, { connector: 'cloud_api' });
    const rows = await list({ org_id: w.other.id, phone_ids: [cloud.phone_id, w.foreign.phone_id], connected: false });
    expect(rows.map((r) => [r.phone_id, r.connector])).toEqual([
      [w.foreign.phone_id, 'sandbox'],
      [cloud.phone_id, 'cloud_api'],
    ]);
  });

  it('narrows to some ids, to one number, or to connected phones with a number', async () => {
    expect(
      ids(await list({ org_id: w.org.id, phone_ids: [w.late.phone_id, w.foreign.phone_id, w.deleted.phone_id], connected: false })),
    ).toEqual([w.late.phone_id]);
    expect(ids(await list({ org_id: w.org.id, org_phone: w.qr.org_phone, connected: false }))).toEqual([w.qr.phone_id]);
    expect(ids(await list({ org_id: w.org.id, org_phone: w.foreign.org_phone, connected: false }))).toEqual([]);
    expect(ids(await list({ org_id: w.org.id, connected: true }))).toEqual([w.early.phone_id, w.late.phone_id]);
    expect(ids(await list({ org_id: w.org.id, phone_ids: [], connected: false }))).toEqual([]);
  });
});
