import type { ImportItemResult, RequestContext } from '@mapi/contracts';
import type { Prisma } from '@mapi/db';
import { createOrg, newUuid, useTestDatabase } from '@mapi/testing';
import { EnabledWorkflows } from '../../engine/enabled-workflows';
import { IMPORTED_BY, ImportWorkflows } from './import-workflows.usecase';

/** automation.v1.import.workflows against Postgres; "runs nothing" is the engine's own read of enabled workflows. */
describe('ImportWorkflows (integration)', () => {
  const t = useTestDatabase('automation_import_workflows');
  const w: Record<string, string> = {};
  const ctx = (org: string): RequestContext => ({ org_id: org, token_id: newUuid(), phone_scope: null, phone: null });
  const run = (org: string, items: unknown[]) => new ImportWorkflows(t.prisma).execute({ ctx: ctx(org), body: { items } });
  const outcomes = (r: { results: ImportItemResult[] }) => r.results.map((x) => x.outcome);
  const workflow = (id: string) => t.prisma.automationWorkflow.findUnique({ where: { id } });
  const mine = () => t.prisma.automationWorkflow.findMany({ where: { org_id: w.org }, orderBy: { id: 'asc' } });
  const enabled = async (org: string) =>
    (
      (await new EnabledWorkflows().of(t.prisma as unknown as Prisma.TransactionClient, [org])).get(org)?.get('message.created')?.all ?? []
    ).map((x) => x.id);
  const reply = (message: string) => [
    { id: 'reply', action_metadata: { type: 'send_message_to_chat', metadata: { message, chat_id: 'trigger_chat' } }, next: null },
  ];
  /** A workflow as GET /workflows answers it at the source: switched on there. */
  const source = (id: string, message = 'hello') => ({
    source_id: id,
    id,
    org_id: newUuid(),
    name: `Greet ${id.slice(0, 4)}`,
    trigger: 'message.created',
    is_active: true,
    updated_by: 'someone@source.io',
    trigger_metadata: { org_phones: [], allow_internal_messages: false, first_action_id: 'reply' },
    actions: reply(message),
  });

  beforeAll(async () => {
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    [w.greet, w.thanks, w.theirs] = [newUuid(), newUuid(), newUuid()];
    await t.prisma.automationWorkflow.create({
      data: {
        id: w.theirs,
        org_id: w.other,
        name: 'Theirs',
        trigger: 'message.created',
        trigger_metadata: { first_action_id: 'reply' },
        actions: reply('theirs'),
        is_active: true,
        updated_by: 'owner',
      },
    });
  });

  it('makes workflows at their source ids with their definitions, switched off and marked imported', async () => {
    const r = await run(w.org, [source(w.greet), source(w.thanks, 'thanks')]);
    expect(r.results).toEqual([
      { source_id: w.greet, target_id: w.greet, outcome: 'created' },
      { source_id: w.thanks, target_id: w.thanks, outcome: 'created' },
    ]);
    expect(await workflow(w.greet)).toMatchObject({
      org_id: w.org,
      name: source(w.greet).name,
      trigger: 'message.created',
      is_active: false,
      updated_by: IMPORTED_BY,
      deleted_at: null,
      trigger_metadata: { org_phones: [], allow_internal_messages: false, first_action_id: 'reply' },
      actions: reply('hello'),
    });
    expect(await workflow(w.thanks)).toMatchObject({ is_active: false, updated_by: 'import', actions: reply('thanks') });
    expect(await enabled(w.org)).toEqual([]);
  });

  it('answers the same batch again with skipped and writes nothing', async () => {
    const before = await mine();
    expect(outcomes(await run(w.org, [source(w.greet), source(w.thanks, 'thanks')]))).toEqual(['skipped', 'skipped']);
    expect(await mine()).toEqual(before);
  });

  it("updates a changed definition, by source id or the id map's target id, never switching one on or off", async () => {
    await t.prisma.automationWorkflow.update({ where: { id: w.thanks }, data: { is_active: true, updated_by: 'owner@ours.io' } }); // cut over meanwhile
    const r = await run(w.org, [
      { ...source(w.greet, 'hello again'), is_active: true },
      { ...source(newUuid(), 'thank you'), name: 'Thanks', target_id: w.thanks, is_active: false },
    ]);
    expect(r.results.map((x) => [x.target_id, x.outcome])).toEqual([
      [w.greet, 'updated'],
      [w.thanks, 'updated'],
    ]);
    expect(await workflow(w.greet)).toMatchObject({ actions: reply('hello again'), is_active: false, updated_by: IMPORTED_BY });
    expect(await workflow(w.thanks)).toMatchObject({ name: 'Thanks', actions: reply('thank you'), is_active: true });
    expect(await enabled(w.org)).toEqual([w.thanks]);
    expect(await t.prisma.automationWorkflow.count({ where: { org_id: w.org } })).toBe(2);
  });

  it('gives an id another organization holds a new one, the same on every run, and never touches theirs', async () => {
    const theirs = await workflow(w.theirs);
    const item = { ...source(w.theirs, 'ours'), name: 'Ours' };
    const first = await run(w.org, [item]);
    const id = first.results[0].target_id ?? '';
    expect(first.results[0].outcome).toBe('created');
    expect(id).not.toBe(w.theirs);
    expect(await workflow(id)).toMatchObject({ org_id: w.org, name: 'Ours', is_active: false, updated_by: IMPORTED_BY });
    expect((await run(w.org, [item])).results[0]).toEqual({ source_id: w.theirs, target_id: id, outcome: 'skipped' });
    expect((await run(w.org, [{ ...item, name: 'Ours 2' }])).results[0]).toEqual({
      source_id: w.theirs,
      target_id: id,
      outcome: 'updated',
    });
    // a target id naming their workflow does not reach it either
    expect((await run(w.org, [{ ...item, target_id: w.theirs, name: 'Hijack' }])).results[0]).toMatchObject({
      target_id: id,
      outcome: 'updated',
    });
    expect(await workflow(w.theirs)).toEqual(theirs);
    expect(await t.prisma.automationWorkflow.count({ where: { org_id: w.other } })).toBe(1);
  });

  it('gives a source id that is not a uuid a derived id, once', async () => {
    const item = { ...source(newUuid()), source_id: 'wf-12' };
    const first = await run(w.org, [item]);
    expect(first.results[0]).toMatchObject({ source_id: 'wf-12', outcome: 'created', target_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect((await run(w.org, [item])).results[0]).toEqual({ ...first.results[0], outcome: 'skipped' });
  });

  it('fails a definition a create would refuse, with why, while the rest of the batch lands', async () => {
    const [good, noName, badTrigger, dangling, notArray] = [newUuid(), newUuid(), newUuid(), newUuid(), newUuid()];
    const r = await run(w.org, [
      { ...source(newUuid()), source_id: undefined },
      { ...source(noName), name: '' },
      { ...source(badTrigger), trigger: 'moon.landed' },
      { ...source(dangling), trigger_metadata: { first_action_id: 'nowhere' } },
      { ...source(notArray), actions: 'reply' },
      'not an object',
      source(good),
    ]);
    expect(outcomes(r)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'failed', 'created']);
    expect(r.results.map((x) => x.source_id)).toEqual(['', noName, badTrigger, dangling, notArray, '', good]);
    expect(r.results[0].reason).toBe('source_id is missing');
    expect(r.results[1].reason).toMatch(/^name: /);
    expect(r.results[2].reason).toMatch(/^trigger: trigger must be one of/);
    expect(r.results[3].reason).toMatch(/^trigger_metadata\.first_action_id: no action has id nowhere/);
    expect(r.results[4].reason).toMatch(/^actions: /);
    expect(r.results.slice(0, 6).every((x) => x.target_id === null)).toBe(true);
    expect(await t.prisma.automationWorkflow.count({ where: { id: { in: [noName, badTrigger, dangling, notArray] } } })).toBe(0);
    expect(await workflow(good)).toMatchObject({ org_id: w.org, is_active: false });
  });
});
