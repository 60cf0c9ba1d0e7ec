import type { ImportItemResult, RequestContext } from '@mapi/contracts';
import { generateSecret } from '@mapi/platform';
import { createOrg, newUuid, useTestDatabase } from '@mapi/testing';
import { Pool } from 'pg';
import { DeliveryStore } from '../../delivery/delivery-store';
import { IMPORTED_REASON, ImportSubscriptions } from './import-subscriptions.usecase';

/** webhooks.v1.import.subscriptions against Postgres; delivery is the dispatcher's own scheduling SQL. */
describe('ImportSubscriptions (integration)', () => {
  const t = useTestDatabase('webhooks_import');
  const w: Record<string, string> = {};
  let pool: Pool;
  const ctx = (org: string): RequestContext => ({ org_id: org, token_id: newUuid(), phone_scope: null, phone: null });
  const run = (org: string, items: unknown[]) => new ImportSubscriptions(t.prisma).execute({ ctx: ctx(org), body: { items } });
  const outcomes = (r: { results: ImportItemResult[] }) => r.results.map((x) => x.outcome);
  const sub = (id: string) => t.prisma.webhookSubscription.findUnique({ where: { id } });
  const mine = () => t.prisma.webhookSubscription.findMany({ where: { org_id: w.org }, orderBy: { id: 'asc' } });
  const sourceSecret = generateSecret();
  // metadata keys in the source's order, not Postgres' (jsonb orders keys by length)
  const created = () => ({
    source_id: w.created,
    integration_name: 'message.created',
    hook_url: 'https://hooks.example.com/in',
    integration_id: w.integration,
    integration_metadata: { team: 'ops', id: 7 },
    secret: sourceSecret,
    is_subscribed: true,
  });
  const ticket = () => ({
    source_id: w.ticket,
    integration_name: 'ticket.created',
    hook_url: 'http://crm.example.com/t',
    integration_id: w.integration,
    is_subscribed: true,
  });

  beforeAll(async () => {
    pool = new Pool({ connectionString: t.db.url, max: 2 });
    pool.on('error', () => undefined); // the database is dropped after this file
    w.org = (await createOrg(t.prisma)).id;
    w.other = (await createOrg(t.prisma)).id;
    [w.created, w.ticket, w.integration, w.theirs] = [newUuid(), newUuid(), newUuid(), newUuid()];
    await t.prisma.webhookSubscription.create({
      data: {
        id: w.theirs,
        org_id: w.other,
        integration_name: 'message.created',
        integration_id: newUuid(),
        integration_metadata: { x: 1 },
        hook_url: 'https://theirs.example.com',
        secret: generateSecret(),
      },
    });
  });
  afterAll(() => pool?.end());

  it('makes subscriptions at their source ids, switched off as imported, with a new secret of ours', async () => {
    const r = await run(w.org, [created(), ticket()]);
    expect(r.results).toEqual([
      { source_id: w.created, target_id: w.created, outcome: 'created' },
      { source_id: w.ticket, target_id: w.ticket, outcome: 'created' },
    ]);
    const [a, b] = [await sub(w.created), await sub(w.ticket)];
    expect(a).toMatchObject({
      org_id: w.org,
      integration_name: 'message.created',
      hook_url: 'https://hooks.example.com/in',
      integration_id: w.integration,
      integration_metadata: { team: 'ops', id: 7 },
      integration_type: 'webhook',
      type: 'webhook',
      is_subscribed: false,
      disabled_reason: IMPORTED_REASON,
    });
    expect(b).toMatchObject({
      integration_name: 'ticket.created',
      integration_metadata: {},
      is_subscribed: false,
      disabled_reason: 'imported',
    });
    expect(a?.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(new Set([a?.secret, b?.secret, sourceSecret]).size).toBe(3);
  });

  it('delivers nothing to an imported subscription, while a live one of the organization gets the event', async () => {
    const live = await t.prisma.webhookSubscription.create({
      data: {
        org_id: w.org,
        integration_name: 'message.created',
        integration_id: newUuid(),
        integration_metadata: {},
        hook_url: 'https://live.example.com',
        secret: generateSecret(),
      },
    });
    const event = {
      id: newUuid(),
      org_id: w.org,
      type: 'message.created',
      phone_id: null,
      created_at: new Date().toISOString(),
      body: '{}',
    };
    expect(await new DeliveryStore(pool).scheduleEvents([event], new Date())).toBe(1);
    const deliveries = await t.prisma.webhookDelivery.findMany({ where: { event_id: event.id } });
    expect(deliveries.map((d) => d.subscription_id)).toEqual([live.id]);
    await t.prisma.webhookSubscription.delete({ where: { id: live.id } });
  });

  it('answers the same batch again with skipped and writes nothing', async () => {
    const before = await mine();
    expect(outcomes(await run(w.org, [created(), ticket()]))).toEqual(['skipped', 'skipped']);
    expect(await mine()).toEqual(before);
  });

  it('updates a changed URL or metadata, never switching a subscription on or off nor changing its secret', async () => {
    await t.prisma.webhookSubscription.update({ where: { id: w.ticket }, data: { is_subscribed: true, disabled_reason: null } }); // cut over meanwhile
    const before = [await sub(w.created), await sub(w.ticket)];
    const r = await run(w.org, [
      { ...created(), hook_url: 'https://hooks.example.com/v2', is_subscribed: true },
      { ...ticket(), source_id: newUuid(), target_id: w.ticket, integration_metadata: { note: 'moved' }, is_subscribed: false },
    ]);
    expect(r.results.map((x) => [x.target_id, x.outcome])).toEqual([
      [w.created, 'updated'],
      [w.ticket, 'updated'],
    ]);
    expect(await sub(w.created)).toMatchObject({
      hook_url: 'https://hooks.example.com/v2',
      is_subscribed: false,
      disabled_reason: 'imported',
      secret: before[0]?.secret,
    });
    expect(await sub(w.ticket)).toMatchObject({
      integration_metadata: { note: 'moved' },
      is_subscribed: true,
      disabled_reason: null,
      secret: before[1]?.secret,
    });
  });

  it('gives an id another organization holds a new one, the same on every run, and never touches theirs', async () => {
    const theirs = await sub(w.theirs);
    const item = { source_id: w.theirs, integration_name: 'message.created', hook_url: 'https://ours.example.com' };
    const first = await run(w.org, [item]);
    const id = first.results[0].target_id ?? '';
    expect(first.results[0].outcome).toBe('created');
    expect(id).not.toBe(w.theirs);
    expect(await sub(id)).toMatchObject({
      org_id: w.org,
      hook_url: 'https://ours.example.com',
      is_subscribed: false,
      disabled_reason: 'imported',
    });
    expect((await run(w.org, [item])).results[0]).toEqual({ source_id: w.theirs, target_id: id, outcome: 'skipped' });
    expect((await run(w.org, [{ ...item, hook_url: 'https://ours.example.com/2' }])).results[0]).toEqual({
      source_id: w.theirs,
      target_id: id,
      outcome: 'updated',
    });
    expect((await run(w.org, [{ ...item, target_id: id, hook_url: 'https://ours.example.com/3' }])).results[0]).toEqual({
      source_id: w.theirs,
      target_id: id,
      outcome: 'updated',
    });
    expect((await sub(id))?.hook_url).toBe('https://ours.example.com/3');
    // a target id naming their subscription does not reach it either
    expect((await run(w.org, [{ ...item, target_id: w.theirs, hook_url: 'https://hijack.example.com' }])).results[0]).toMatchObject({
      target_id: id,
      outcome: 'updated',
    });
    expect(await sub(w.theirs)).toEqual(theirs);
    expect(await t.prisma.webhookSubscription.count({ where: { org_id: w.other } })).toBe(1);
  });

  it('fails an item without a catalogue event or an http(s) URL with why, while the rest of the batch lands', async () => {
    const [good, unknownEvent, ftp, noUrl] = [newUuid(), newUuid(), newUuid(), newUuid()];
    const r = await run(w.org, [
      { integration_name: 'message.created', hook_url: 'https://x.example.com' },
      { source_id: unknownEvent, integration_name: 'message.exploded', hook_url: 'https://x.example.com' },
      { source_id: ftp, integration_name: 'message.created', hook_url: 'ftp://x.example.com' },
      { source_id: noUrl, integration_name: 'message.created', hook_url: 42 },
      { source_id: newUuid(), integration_name: 'message.created', hook_url: `https://x.example.com/${'a'.repeat(2048)}` },
      'not an object',
      { source_id: good, integration_name: 'chat.created', hook_url: 'https://fine.example.com' },
    ]);
    expect(outcomes(r)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'failed', 'created']);
    expect(r.results.slice(0, 4).map((x) => x.source_id)).toEqual(['', unknownEvent, ftp, noUrl]);
    expect(r.results.slice(0, 6).every((x) => x.target_id === null && /event name .* hook_url/.test(x.reason ?? ''))).toBe(true);
    expect(await t.prisma.webhookSubscription.count({ where: { id: { in: [unknownEvent, ftp, noUrl] } } })).toBe(0);
    expect(await sub(good)).toMatchObject({ org_id: w.org, hook_url: 'https://fine.example.com', is_subscribed: false });
  });
});
