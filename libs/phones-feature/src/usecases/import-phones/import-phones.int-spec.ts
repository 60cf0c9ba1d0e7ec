import { PHONE_ID, type ImportItemResult, type RequestContext } from '@mapi/contracts';
import { createOrg, createPhone, newUuid, randomDigits, useTestDatabase } from '@mapi/testing';
import { newPhoneId } from '../../repositories/phone-repository';
import { ImportPhones } from './import-phones.usecase';

/** phones.v1.import.phones against Postgres: source phones made here as phones to reconnect by QR. */
describe('ImportPhones (integration)', () => {
  const t = useTestDatabase('phones_import');
  const w: Record<string, string> = {};
  const ctx = (org: string): RequestContext => ({ org_id: org, token_id: newUuid(), phone_scope: null, phone: null });
  const run = (org: string, items: unknown[]) => new ImportPhones(t.prisma, 'sandbox').execute({ ctx: ctx(org), body: { items } });
  const phone = (id: string) => t.prisma.phone.findUnique({ where: { phone_id: id } });
  const outcomes = (r: { results: ImportItemResult[] }) => r.results.map((x) => x.outcome);
  const number = () => `${randomDigits(12)}@c.us`;

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    [w.sales, w.support, w.salesNumber] = [newPhoneId(), newPhoneId(), number()];
  });

  it('makes each source phone here at its id, not paired, with its name, number and labels', async () => {
    const r = await run(w.org, [
      { source_id: w.sales, phone_name: 'Sales', org_phone: w.salesNumber, labels: ['eu', 'sales'] },
      { source_id: w.support, phone_name: null },
    ]);
    expect(r.results).toEqual([
      { source_id: w.sales, target_id: w.sales, outcome: 'created' },
      { source_id: w.support, target_id: w.support, outcome: 'created' },
    ]);
    expect(await phone(w.sales)).toMatchObject({
      org_id: w.org,
      phone_name: 'Sales',
      org_phone: w.salesNumber,
      labels: ['eu', 'sales'],
      connector: 'sandbox',
      wa_state: 'UNPAIRED',
      is_ready: false,
      qr_code: null,
      first_connected_at: null,
      deleted_at: null,
    });
    expect(await phone(w.support)).toMatchObject({
      org_id: w.org,
      phone_name: null,
      org_phone: null,
      labels: [],
      wa_state: 'UNPAIRED',
      is_ready: false,
    });
  });

  it('answers the same batch again with skipped and writes nothing', async () => {
    const before = await t.prisma.phone.findMany({ where: { org_id: w.org }, orderBy: { phone_id: 'asc' } });
    const r = await run(w.org, [
      { source_id: w.sales, phone_name: 'Sales', org_phone: w.salesNumber, labels: ['eu', 'sales'] },
      { source_id: w.support, phone_name: null },
    ]);
    expect(r.results).toEqual([
      { source_id: w.sales, target_id: w.sales, outcome: 'skipped' },
      { source_id: w.support, target_id: w.support, outcome: 'skipped' },
    ]);
    expect(await t.prisma.phone.findMany({ where: { org_id: w.org }, orderBy: { phone_id: 'asc' } })).toEqual(before);
  });

  it("updates a renamed or relabelled phone, by its source id or by the id map's target id, leaving its state alone", async () => {
    await t.prisma.phone.update({ where: { phone_id: w.sales }, data: { wa_state: 'CONNECTED', is_ready: true } }); // paired here meanwhile
    const r = await run(w.org, [
      { source_id: w.sales, phone_name: 'Sales EU', org_phone: w.salesNumber, labels: ['eu', 'sales'] },
      { source_id: newPhoneId(), target_id: w.support, phone_name: 'Support', labels: ['help'] },
    ]);
    expect(r.results.map((x) => [x.target_id, x.outcome])).toEqual([
      [w.sales, 'updated'],
      [w.support, 'updated'],
    ]);
    expect(await phone(w.sales)).toMatchObject({ phone_name: 'Sales EU', labels: ['eu', 'sales'], wa_state: 'CONNECTED', is_ready: true });
    expect(await phone(w.support)).toMatchObject({ phone_name: 'Support', labels: ['help'], wa_state: 'UNPAIRED' });
    expect(await t.prisma.phone.count({ where: { org_id: w.org } })).toBe(2);
  });

  it('makes a phone live in another organization a new, disconnected phone of this one, and leaves theirs alone', async () => {
    const live = await createPhone(t.prisma, w.other, { phone_name: 'Theirs', labels: ['x'] });
    const item = { source_id: live.phone_id, phone_name: 'Ours now', org_phone: live.org_phone, labels: ['moved'] };
    const first = await run(w.org, [item]);
    const id = first.results[0].target_id ?? '';
    expect(first.results[0]).toMatchObject({ source_id: live.phone_id, outcome: 'created' });
    expect(id).not.toBe(live.phone_id);
    expect(id).toMatch(PHONE_ID);
    expect(await phone(id)).toMatchObject({
      org_id: w.org,
      phone_name: 'Ours now',
      org_phone: live.org_phone,
      labels: ['moved'],
      wa_state: 'UNPAIRED',
      is_ready: false,
    });
    expect(await phone(live.phone_id)).toEqual(live);

    // a later run names it by the id map: the same phone, never a second one; theirs still untouched
    expect((await run(w.org, [{ ...item, target_id: id }])).results[0]).toEqual({
      source_id: live.phone_id,
      target_id: id,
      outcome: 'skipped',
    });
    expect((await run(w.org, [{ ...item, target_id: id, phone_name: 'Renamed' }])).results[0]).toMatchObject({
      target_id: id,
      outcome: 'updated',
    });
    // a target id naming their phone is not a phone here: a new one is made, theirs untouched
    const stray = newPhoneId();
    expect((await run(w.org, [{ source_id: stray, target_id: live.phone_id, phone_name: 'Hijack' }])).results[0]).toEqual({
      source_id: stray,
      target_id: stray,
      outcome: 'created',
    });
    expect(await phone(live.phone_id)).toEqual(live);
    expect(await t.prisma.phone.count({ where: { org_id: w.org, phone_name: { in: ['Ours now', 'Renamed'] } } })).toBe(1);
  });

  it('gives a new id to a source id that cannot be a phone id here, and keeps only a number that is one', async () => {
    const r = await run(w.org, [{ source_id: 'legacy-7', phone_name: 'Old', org_phone: '+49 151 000' }]);
    const id = r.results[0].target_id ?? '';
    expect(r.results[0].outcome).toBe('created');
    expect(id).toMatch(PHONE_ID);
    expect(await phone(id)).toMatchObject({ org_id: w.org, phone_name: 'Old', org_phone: null });
  });

  it('fails a bad item with why while the rest of the batch lands', async () => {
    const [good, badName, badLabels] = [newPhoneId(), newPhoneId(), newPhoneId()];
    const r = await run(w.org, [
      { phone_name: 'no source id' },
      { source_id: badName, phone_name: 42 },
      { source_id: badLabels, labels: 'vip' },
      'not an object',
      null,
      { source_id: good, phone_name: 'Fine' },
    ]);
    expect(outcomes(r)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'created']);
    expect(r.results[0].reason).toMatch(/source_id/);
    expect(r.results[1].reason).toMatch(/phone_name/);
    expect(r.results[2].reason).toMatch(/labels/);
    expect(r.results.slice(0, 5).every((x) => x.target_id === null && x.reason?.startsWith('not a phone:'))).toBe(true);
    expect(r.results.map((x) => x.source_id)).toEqual(['', badName, badLabels, '', '', good]);
    expect(await phone(good)).toMatchObject({ org_id: w.org, phone_name: 'Fine' });
    expect(await t.prisma.phone.count({ where: { phone_id: { in: [badName, badLabels] } } })).toBe(0);
  });
});
