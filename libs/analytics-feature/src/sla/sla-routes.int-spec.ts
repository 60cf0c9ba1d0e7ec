import {
  CreateSlaPolicyRpc,
  DeleteBusinessHoursRpc,
  DeleteSlaPolicyRpc,
  GetBusinessHoursRpc,
  GetSlaPolicyRpc,
  ListSlaPoliciesRpc,
  PutBusinessHoursRpc,
  UpdateSlaPolicyRpc,
  type RequestContext,
} from '@mapi/contracts';
import { createOrg, newUuid, useTestDatabase } from '@mapi/testing';
import { BusinessHoursRepository } from '../business-hours/business-hours-repository';
import { CreateSlaPolicy } from '../usecases/create-sla-policy/create-sla-policy.usecase';
import { DeleteBusinessHours } from '../usecases/delete-business-hours/delete-business-hours.usecase';
import { DeleteSlaPolicy } from '../usecases/delete-sla-policy/delete-sla-policy.usecase';
import { GetBusinessHours } from '../usecases/get-business-hours/get-business-hours.usecase';
import { GetSlaPolicy } from '../usecases/get-sla-policy/get-sla-policy.usecase';
import { ListSlaPolicies } from '../usecases/list-sla-policies/list-sla-policies.usecase';
import { PutBusinessHours } from '../usecases/put-business-hours/put-business-hours.usecase';
import { UpdateSlaPolicy } from '../usecases/update-sla-policy/update-sla-policy.usecase';
import { SlaPolicyRepository } from './sla-policy-repository';

/** The schedule and policy use cases against Postgres: organizations apart, phone-limited tokens narrowed. */
describe('business hours and SLA policy routes (integration)', () => {
  const t = useTestDatabase('analytics_sla_routes_int', { poolSize: 3 });
  const ctxOf = (org_id: string, phone_scope: string[] | null = null): RequestContext => ({
    org_id,
    token_id: newUuid(),
    phone_scope,
    phone: null,
  });
  const policies = () => new SlaPolicyRepository(t.prisma);
  const hours = () => new BusinessHoursRepository(t.prisma);
  const status = (p: Promise<unknown>) =>
    p.then(
      () => 200,
      (e: { status?: number }) => e.status ?? 500,
    );
  const week = {
    time_zone: 'Asia/Kolkata',
    weekly: { monday: [{ start: '09:00', end: '18:00' }] },
    holidays: ['2026-12-25', '2026-01-26'],
  };

  it('sets, reads and removes an organization’s schedule; another organization never sees or changes it', async () => {
    const [a, b] = [ctxOf((await createOrg(t.prisma)).id), ctxOf((await createOrg(t.prisma)).id)];
    const put = await new PutBusinessHours(hours()).execute(PutBusinessHoursRpc.request.parse({ ctx: a, body: week }));
    expect(put.business_hours).toMatchObject({ time_zone: 'Asia/Kolkata', holidays: ['2026-01-26', '2026-12-25'] });
    expect(PutBusinessHoursRpc.response.parse(put)).toEqual(put);
    expect(await new GetBusinessHours(hours()).execute({ ctx: a })).toEqual(put);
    expect(await new GetBusinessHours(hours()).execute({ ctx: b })).toEqual({ business_hours: null });
    await new DeleteBusinessHours(hours()).execute(DeleteBusinessHoursRpc.request.parse({ ctx: b }));
    expect(await new GetBusinessHours(hours()).execute(GetBusinessHoursRpc.request.parse({ ctx: a }))).toEqual(put);
    // a token limited to phones cannot change the organization's schedule
    expect(
      await status(
        new PutBusinessHours(hours()).execute({
          ctx: { ...a, phone_scope: ['p1'] },
          body: PutBusinessHoursRpc.request.parse({ ctx: a, body: week }).body,
        }),
      ),
    ).toBe(403);
    expect(await status(new DeleteBusinessHours(hours()).execute({ ctx: { ...a, phone_scope: ['p1'] } }))).toBe(403);
    expect(await new DeleteBusinessHours(hours()).execute({ ctx: a })).toEqual({ business_hours: null });
    expect(await new GetBusinessHours(hours()).execute({ ctx: a })).toEqual({ business_hours: null });
  });

  it('creates, lists, reads, changes and deletes policies; another organization gets 404 and sees none', async () => {
    const [a, b] = [ctxOf((await createOrg(t.prisma)).id), ctxOf((await createOrg(t.prisma)).id)];
    const body = CreateSlaPolicyRpc.request.parse({ ctx: a, body: { name: 'First reply', kind: 'first_response', minutes: 15 } }).body;
    const { policy } = await new CreateSlaPolicy(policies()).execute({ ctx: a, body });
    expect(policy).toMatchObject({
      org_id: a.org_id,
      name: 'First reply',
      kind: 'first_response',
      minutes: 15,
      label_id: null,
      phone_id: null,
      enabled: true,
    });
    expect((await new ListSlaPolicies(policies()).execute({ ctx: a })).policies).toEqual([policy]);
    expect((await new ListSlaPolicies(policies()).execute(ListSlaPoliciesRpc.request.parse({ ctx: b }))).policies).toEqual([]);
    const params = { policy_id: policy.policy_id };
    expect((await new GetSlaPolicy(policies()).execute(GetSlaPolicyRpc.request.parse({ ctx: a, params }))).policy).toEqual(policy);
    expect(await status(new GetSlaPolicy(policies()).execute({ ctx: b, params }))).toBe(404);
    expect(await status(new UpdateSlaPolicy(policies()).execute({ ctx: b, params, body: { minutes: 1 } }))).toBe(404);
    expect(await status(new DeleteSlaPolicy(policies()).execute({ ctx: b, params }))).toBe(404);
    const changed = await new UpdateSlaPolicy(policies()).execute(
      UpdateSlaPolicyRpc.request.parse({ ctx: a, params, body: { minutes: 30, label_id: 'vip' } }),
    );
    expect(changed.policy).toMatchObject({ minutes: 30, label_id: 'vip', name: 'First reply' });
    const deleted = await new DeleteSlaPolicy(policies()).execute(DeleteSlaPolicyRpc.request.parse({ ctx: a, params }));
    expect(deleted.policy).toEqual(changed.policy);
    expect(await status(new GetSlaPolicy(policies()).execute({ ctx: a, params }))).toBe(404);
  });

  it('a change racing a delete of the same policy is a 404, not a 500', async () => {
    const a = ctxOf((await createOrg(t.prisma)).id);
    const { policy } = await new CreateSlaPolicy(policies()).execute({
      ctx: a,
      body: { name: 'Race', kind: 'next_response', minutes: 5, enabled: true },
    });
    const repo = policies();
    const read = await repo.get(a.org_id, policy.policy_id);
    const realGet = repo.get.bind(repo);
    // The change reads the policy (the use case, then the repository), then the delete commits, then the change writes.
    let reads = 0;
    repo.get = async (org, id) => (reads++ < 2 ? read : realGet(org, id));
    await new DeleteSlaPolicy(policies()).execute({ ctx: a, params: { policy_id: policy.policy_id } });
    expect(
      await status(
        new UpdateSlaPolicy(repo).execute({ ctx: a, params: { policy_id: policy.policy_id }, body: { minutes: 911, enabled: true } }),
      ),
    ).toBe(404);
  });

  it('narrows a token limited to phones: its phones’ policies and every phone’s, writes only on its phones', async () => {
    const org = (await createOrg(t.prisma)).id;
    const whole = ctxOf(org);
    const scoped = ctxOf(org, ['p1']);
    const make = (ctx: RequestContext, phone_id?: string) =>
      new CreateSlaPolicy(policies()).execute({
        ctx,
        body: { name: 'x', kind: 'next_response', minutes: 5, enabled: true, ...(phone_id ? { phone_id } : {}) },
      });
    const all = (await make(whole)).policy;
    const p2 = (await make(whole, 'p2')).policy;
    const p1 = (await make(scoped, 'p1')).policy;
    expect(await status(make(scoped))).toBe(403);
    expect(await status(make(scoped, 'p2'))).toBe(404);
    expect((await new ListSlaPolicies(policies()).execute({ ctx: scoped })).policies.map((p) => p.policy_id)).toEqual([
      all.policy_id,
      p1.policy_id,
    ]);
    expect(await status(new GetSlaPolicy(policies()).execute({ ctx: scoped, params: { policy_id: p2.policy_id } }))).toBe(404);
    expect(
      await status(new UpdateSlaPolicy(policies()).execute({ ctx: scoped, params: { policy_id: all.policy_id }, body: { minutes: 9 } })),
    ).toBe(403);
    expect(
      await status(new UpdateSlaPolicy(policies()).execute({ ctx: scoped, params: { policy_id: p1.policy_id }, body: { phone_id: 'p2' } })),
    ).toBe(404);
    expect(await status(new DeleteSlaPolicy(policies()).execute({ ctx: scoped, params: { policy_id: p1.policy_id } }))).toBe(200);
  });

  it('refuses a policy past the organization’s limit with a 422 naming the field', async () => {
    const ctx = ctxOf((await createOrg(t.prisma)).id);
    for (let i = 0; i < 100; i++) await policies().create(ctx.org_id, { name: `p${i}`, kind: 'first_response', minutes: 5, enabled: true });
    const err = await new CreateSlaPolicy(policies())
      .execute({ ctx, body: { name: 'one more', kind: 'first_response', minutes: 5, enabled: true } })
      .catch((e: { status: number; fields: Record<string, unknown> }) => e);
    expect(err).toMatchObject({ status: 422, fields: { name: expect.anything() } });
  });
});
