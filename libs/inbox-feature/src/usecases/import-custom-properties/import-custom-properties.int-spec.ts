import { createOrg, newUuid, useTestDatabase } from '@mapi/testing';
import { importCtx, outcomes } from '../../testing/import-stand-ins';
import { ImportCustomProperties } from './import-custom-properties.usecase';

/** inbox.v1.import.custom-properties against Postgres. */
describe('import custom properties (integration)', () => {
  const t = useTestDatabase('inbox_import_props');
  const w: Record<string, string> = {};
  const run = (org: string, items: unknown[]) => new ImportCustomProperties(t.prisma).execute({ ctx: importCtx(org), body: { items } });
  const prop = (id: string) => t.prisma.inboxCustomProperty.findUnique({ where: { property_id: id } });
  const plan = () => ({
    source_id: w.plan,
    property_name: 'Plan',
    property_value_type: 'dropdown',
    property_value: 'free, pro,Free,team',
    is_required: true,
    type: 'chat',
    created_by: 'amy@example.com',
    created_at: '2024-05-01T00:00:00.000Z',
  });
  const region = () => ({
    source_id: w.region,
    property_name: 'Region',
    property_value_type: 'text',
    property_value: null,
    is_required: false,
    type: 'ticket',
  });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    [w.plan, w.region, w.taken] = [newUuid(), newUuid(), newUuid()];
    await t.prisma.inboxCustomProperty.create({ data: { property_id: w.taken, org_id: w.other, property_name: 'Tier' } });
  });

  it('creates definitions at their source ids, options read as GET /custom-properties gives them, dates kept', async () => {
    const r = await run(w.org, [plan(), region()]);
    expect(r.results).toEqual([
      { source_id: w.plan, target_id: w.plan, outcome: 'created' },
      { source_id: w.region, target_id: w.region, outcome: 'created' },
    ]);
    expect(await prop(w.plan)).toMatchObject({
      org_id: w.org,
      property_name: 'Plan',
      property_value_type: 'dropdown',
      property_value: ['free', 'pro', 'team'],
      is_required: true,
      type: 'chat',
      created_by: 'amy@example.com',
      created_at: new Date('2024-05-01T00:00:00.000Z'),
    });
    expect(await prop(w.region)).toMatchObject({ property_value_type: 'text', property_value: [], type: 'ticket' });
  });

  it('answers the same batch again with skipped and makes nothing', async () => {
    const before = await t.prisma.inboxCustomProperty.count();
    expect(outcomes(await run(w.org, [plan(), region()]))).toEqual(['skipped', 'skipped']);
    expect(await t.prisma.inboxCustomProperty.count()).toBe(before);
  });

  it('updates a changed definition (options, required, name by id) and matches the same name under another id', async () => {
    const r = await run(w.org, [
      { ...plan(), property_value: ['free', 'pro', 'team', 'enterprise'], is_required: false },
      { ...region(), property_name: 'Area' },
      { source_id: newUuid(), property_name: 'Area', property_value_type: 'text', type: 'ticket' },
    ]);
    expect(r.results.map((x) => [x.target_id, x.outcome])).toEqual([
      [w.plan, 'updated'],
      [w.region, 'updated'],
      [w.region, 'skipped'],
    ]);
    expect(await prop(w.plan)).toMatchObject({ property_value: ['free', 'pro', 'team', 'enterprise'], is_required: false });
    expect((await prop(w.region))?.property_name).toBe('Area');
  });

  it("honours the id map's target_id, and makes the row again at it when it was deleted", async () => {
    const gone = newUuid();
    const r = await run(w.org, [{ source_id: 'src-1', target_id: gone, property_name: 'Seats', property_value_type: 'number' }]);
    expect(r.results[0]).toEqual({ source_id: 'src-1', target_id: gone, outcome: 'created' });
    expect(
      outcomes(await run(w.org, [{ source_id: 'src-1', target_id: gone, property_name: 'Seats', property_value_type: 'number' }])),
    ).toEqual(['skipped']);
  });

  it("gives a new id when the source id is another organization's, which stays as it was", async () => {
    const r = await run(w.org, [{ source_id: w.taken, property_name: 'Tier' }]);
    expect(r.results[0].outcome).toBe('created');
    expect(r.results[0].target_id).not.toBe(w.taken);
    expect(await prop(w.taken)).toMatchObject({ org_id: w.other, property_name: 'Tier' });
  });

  it('fails a bad item or a clash of type with its reason while the rest lands', async () => {
    const good = newUuid();
    const r = await run(w.org, [
      { source_id: 'b1', property_name: '' },
      { source_id: 'b2', property_name: 'Colour', property_value_type: 'checkbox' },
      { source_id: 'b3', property_name: 'plan', property_value_type: 'text' },
      { source_id: 'b4', property_name: 'Region2', type: 'contact' },
      { source_id: good, property_name: 'Renewal', property_value_type: 'date', type: 'ticket' },
    ]);
    expect(outcomes(r)).toEqual(['failed', 'failed', 'failed', 'failed', 'created']);
    expect(r.results[0].reason).toMatch(/property_name/);
    expect(r.results[1].reason).toMatch(/property_value_type/);
    expect(r.results[2].reason).toMatch(/Plan here is a chat property of type dropdown/);
    expect(r.results[3].reason).toMatch(/type/);
    expect(await prop(good)).toMatchObject({ property_name: 'Renewal', type: 'ticket' });
    expect((await prop(w.plan))?.property_value_type).toBe('dropdown');
  });

  it("never reads or changes another organization's definitions", async () => {
    const theirs = await t.prisma.inboxCustomProperty.findMany({ where: { org_id: w.other } });
    const r = await run(w.org, [{ source_id: w.taken, target_id: w.taken, property_name: 'Tier', property_value_type: 'number' }]);
    expect(r.results[0].target_id).not.toBe(w.taken);
    expect(await t.prisma.inboxCustomProperty.findMany({ where: { org_id: w.other } })).toEqual(theirs);
  });
});
