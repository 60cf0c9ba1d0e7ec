import { createOrg, newUuid, useTestDatabase } from '@mapi/testing';
import type { ChatProperties } from '../../chat-properties';
import { importCtx, outcomes } from '../../testing/import-stand-ins';
import { ImportLabels } from './import-labels.usecase';

/** inbox.v1.import.labels against Postgres; the chats service's label copies are a recording stand-in. */
describe('import labels (integration)', () => {
  const t = useTestDatabase('inbox_import_labels');
  const w: Record<string, string> = {};
  const renames: string[] = [];
  const chatProperties = {
    renameLabel: async (ctx, l, to) => (renames.push(`${ctx.org_id === w.org ? 'ours' : 'theirs'} ${l.label_id} ${l.name}->${to}`), 1),
  } as ChatProperties;
  const run = (org: string, items: unknown[]) =>
    new ImportLabels(t.prisma, chatProperties).execute({ ctx: importCtx(org), body: { items } });
  const label = (id: string) => t.prisma.inboxLabel.findUnique({ where: { label_id: id } });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    [w.vip, w.billing, w.taken] = [newUuid(), newUuid(), newUuid()];
    await t.prisma.inboxLabel.create({ data: { label_id: w.taken, org_id: w.other, name: 'theirs', color: '#000000' } });
    await t.prisma.inboxLabel.create({ data: { label_id: newUuid(), org_id: w.org, name: 'existing', color: '#111111', type: 'ticket' } });
  });

  it('creates labels at their source ids, with colour, type and date kept', async () => {
    const r = await run(w.org, [
      { source_id: w.vip, name: 'VIP', color: '#FF0000', type: 'chat', created_at: '2024-03-01T10:00:00.000Z' },
      { source_id: w.billing, name: 'billing', type: 'ticket' },
    ]);
    expect(r.results).toEqual([
      { source_id: w.vip, target_id: w.vip, outcome: 'created' },
      { source_id: w.billing, target_id: w.billing, outcome: 'created' },
    ]);
    expect(await label(w.vip)).toMatchObject({
      org_id: w.org,
      name: 'vip',
      color: '#ff0000',
      type: 'chat',
      created_at: new Date('2024-03-01T10:00:00.000Z'),
    });
    expect(await label(w.billing)).toMatchObject({ name: 'billing', color: '#9e9e9e', type: 'ticket' });
  });

  it('answers the same batch again with skipped and makes nothing', async () => {
    const before = await t.prisma.inboxLabel.count();
    const r = await run(w.org, [
      { source_id: w.vip, name: 'VIP', color: '#FF0000', type: 'chat' },
      { source_id: w.billing, name: 'billing', type: 'ticket' },
    ]);
    expect(outcomes(r)).toEqual(['skipped', 'skipped']);
    expect(await t.prisma.inboxLabel.count()).toBe(before);
  });

  it('takes an existing label of the same type and name as the same label, whatever its id, and follows its colour', async () => {
    const existing = await t.prisma.inboxLabel.findFirstOrThrow({ where: { org_id: w.org, name: 'existing' } });
    const r = await run(w.org, [
      { source_id: newUuid(), name: 'Existing', type: 'ticket' },
      { source_id: newUuid(), name: 'existing', type: 'ticket', color: '#222222' },
      { source_id: 'existing', name: 'existing', type: 'ticket' },
    ]);
    expect(r.results.map((x) => [x.target_id, x.outcome])).toEqual([
      [existing.label_id, 'skipped'],
      [existing.label_id, 'updated'],
      [existing.label_id, 'skipped'],
    ]);
    expect((await label(existing.label_id))?.color).toBe('#222222');
  });

  it('makes a label derived from a name only (no source id that can be ours) under a new id, once', async () => {
    const first = await run(w.org, [{ source_id: 'gold', name: 'gold' }]);
    expect(first.results[0]).toMatchObject({ outcome: 'created', target_id: expect.not.stringMatching(/^gold$/) });
    expect(await label(first.results[0].target_id!)).toMatchObject({ name: 'gold', type: 'chat', org_id: w.org });
    expect((await run(w.org, [{ source_id: 'gold', name: 'gold' }])).results[0]).toEqual({ ...first.results[0], outcome: 'skipped' });
  });

  it("renames the label the id map names, carrying the rename to the chats' copies", async () => {
    const r = await run(w.org, [{ source_id: newUuid(), target_id: w.vip, name: 'vip customers', type: 'chat' }]);
    expect(r.results[0]).toMatchObject({ target_id: w.vip, outcome: 'updated' });
    expect(await label(w.vip)).toMatchObject({ name: 'vip customers', color: '#ff0000' });
    expect(renames).toEqual([`ours ${w.vip} vip->vip customers`, `ours ${w.vip} vip->vip customers`]);
  });

  it("gives a new id when the source id is another organization's label, and leaves that one alone", async () => {
    const r = await run(w.org, [{ source_id: w.taken, name: 'theirs' }]);
    expect(r.results[0].outcome).toBe('created');
    expect(r.results[0].target_id).not.toBe(w.taken);
    expect(await label(r.results[0].target_id!)).toMatchObject({ org_id: w.org, name: 'theirs' });
    expect(await label(w.taken)).toMatchObject({ org_id: w.other, name: 'theirs', color: '#000000' });
  });

  it('fails a bad item with its reason while the rest of the batch lands', async () => {
    const good = newUuid();
    const r = await run(w.org, [
      { source_id: 'x1', name: 'a,b' },
      { source_id: 'x2', name: 'ok', color: 'red' },
      { source_id: 'x3', name: 'ok', type: 'group' },
      { name: 'no source id' },
      'not an object',
      { source_id: good, name: 'fine' },
    ]);
    expect(outcomes(r)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'created']);
    expect(r.results[0].reason).toMatch(/comma/);
    expect(r.results[1].reason).toMatch(/color/);
    expect(r.results[2].reason).toMatch(/type/);
    expect(r.results[3].reason).toMatch(/source_id/);
    expect(r.results.slice(0, 5).every((x) => x.target_id === null)).toBe(true);
    expect(await label(good)).toMatchObject({ name: 'fine' });
  });

  it("never reads or changes another organization's labels", async () => {
    const theirs = await t.prisma.inboxLabel.findMany({ where: { org_id: w.other } });
    await run(w.org, [{ source_id: w.taken, target_id: w.taken, name: 'renamed', color: '#123456' }]);
    expect(await t.prisma.inboxLabel.findMany({ where: { org_id: w.other } })).toEqual(theirs);
    expect(renames.filter((x) => x.startsWith('theirs'))).toEqual([]);
  });
});
