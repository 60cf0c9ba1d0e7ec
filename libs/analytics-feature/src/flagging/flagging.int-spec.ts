import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestContext } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { ChatCompletionsClient } from '@mapi/platform';
import { createOrg, newUuid, randomSuffix, useTestDatabase } from '@mapi/testing';
import { BusinessHoursRepository } from '../business-hours/business-hours-repository';
import { applyFlagFacts } from './apply-flag-facts';
import type { FlagFact, FlagMessageFact, FlagStateFact } from './flag-facts';
import { FlagRuleRepository } from './flag-rule-repository';
import { claimFlagJobs, endFlagJob } from './flag-worker';
import { runFlagJob, type FlagJobDeps } from './run-flag-job';

/** A fake OpenAI-compatible server (the model is the outer boundary): answers `reply`, or 500, or never. */
async function fakeModel() {
  const state = { mode: 'answer' as 'answer' | 'error' | 'hang', reply: '{"flag": true, "reason": "The customer is angry"}', calls: 0 };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.calls++;
      if (state.mode === 'hang') return;
      if (state.mode === 'error') return void res.writeHead(500).end('{"error":"down"}');
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: state.reply } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { state, url, stop: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

/**
 * Flagging against Postgres: rules arm keyed jobs from message facts (a redelivery arms nothing twice), a
 * reply cancels pending flags and unflags flagged messages (whichever event comes first), the worker flags
 * through the chats service's RPC (faked here: its own int-spec holds its idempotence) once per job, a lease
 * held by a killed worker is taken again after it, the model flags with its reason and its failures leave the
 * rule-based flags alone; rule routes keep organizations and phone-limited tokens apart.
 */
describe('flagging (integration)', () => {
  const t = useTestDatabase('analytics_flagging_int', { poolSize: 4 });
  const PHONE = `phone-${randomSuffix(4)}`;
  let seq = 0;
  const chat = () => `1666${String(++seq).padStart(6, '0')}@c.us`;
  const msg = (org: string, chat_id: string, at: number, over: Partial<FlagMessageFact> = {}): FlagMessageFact => ({
    type: 'message',
    org_id: org,
    phone_id: PHONE,
    chat_id,
    message_id: `m-${randomSuffix(6)}`,
    at,
    from_me: false,
    body: 'hello',
    ...over,
  });
  const state = (m: FlagMessageFact, flagged: boolean, flaggedAt: number | null, version: number): FlagStateFact => ({
    type: 'state',
    org_id: m.org_id,
    phone_id: m.phone_id,
    chat_id: m.chat_id,
    message_id: m.message_id,
    at: m.at,
    flagged,
    flagged_at: flaggedAt,
    version,
  });
  const apply = (facts: FlagFact[], o: { modelOn?: boolean; now?: number; minuteMs?: number } = {}) =>
    t.prisma.$transaction((tx) =>
      applyFlagFacts(tx, facts, {
        now: o.now ?? Date.now(),
        minuteMs: o.minuteMs ?? 100,
        lateCutoffMs: 3_600_000,
        modelOn: o.modelOn ?? false,
      }),
    );
  const jobs = (org: string) =>
    t.prisma.analyticsFlagJob.findMany({ where: { org_id: org }, orderBy: [{ created_at: 'asc' }, { action: 'asc' }] });
  const ctxOf = (org_id: string, phone_scope: string[] | null = null): RequestContext => ({
    org_id,
    token_id: newUuid(),
    phone_scope,
    phone: null,
  });
  async function orgWith(rules: Array<Parameters<FlagRuleRepository['create']>[1]>) {
    const org = (await createOrg(t.prisma)).id;
    const repo = new FlagRuleRepository(t.prisma);
    const made = [];
    for (const r of rules) made.push(await repo.create(org, r));
    await t.prisma.analyticsFlagRule.updateMany({ where: { org_id: org }, data: { created_at: new Date(Date.now() - 60_000) } });
    return { org, rules: made };
  }
  /** The chats service's flag as the worker calls it: records each call; a message flags once, as chats.v1.message.flag does. */
  function chats() {
    const calls: Array<{ ctx: RequestContext; message_id: string; body: Record<string, unknown> }> = [];
    const flagged = new Set<string>();
    const flag: FlagJobDeps['flag'] = async (req) => {
      calls.push({ ctx: req.ctx, message_id: req.params.message_id, body: req.body });
      if (req.body.flag) flagged.add(req.params.message_id);
      else flagged.delete(req.params.message_id);
      return { flag_status: flagged.has(req.params.message_id) };
    };
    return { calls, flag };
  }
  const deps = (flag: FlagJobDeps['flag'], model: ChatCompletionsClient | null = null, modelAttempts = 2): FlagJobDeps => ({
    prisma: t.prisma as PrismaClient,
    flag,
    model,
    modelAttempts,
  });
  /** Claims and runs every due job of every organization (as one worker round does). */
  async function runDue(d: FlagJobDeps, leaseMs = 30_000) {
    const claimed = await claimFlagJobs(t.prisma as PrismaClient, 100, leaseMs);
    for (const job of claimed) await endFlagJob(t.prisma as PrismaClient, job, await runFlagJob(d, job));
    return claimed;
  }

  it('a keyword flags the message once, with its reason, whatever the redeliveries; another organization arms nothing', async () => {
    const { org, rules } = await orgWith([{ name: 'Refunds', kind: 'keyword', keywords: ['refund'], enabled: true }]);
    const other = (await createOrg(t.prisma)).id;
    const c = chat();
    const m = msg(org, c, Date.now() - 500, { body: 'I want a Refund!' });
    await apply([m, m]);
    await apply([m, msg(other, c, Date.now() - 500, { body: 'refund' }), msg(org, chat(), Date.now(), { body: 'thanks' })]);
    expect((await jobs(org)).map((j) => [j.action, j.rule_id, j.message_id, j.state])).toEqual([
      ['flag', rules[0].rule_id, m.message_id, 'pending'],
    ]);
    expect(await jobs(other)).toEqual([]);
    const x = chats();
    await runDue(deps(x.flag));
    await runDue(deps(x.flag));
    expect(x.calls).toEqual([
      {
        ctx: expect.objectContaining({ org_id: org, phone: { phone_id: PHONE, org_phone: null } }),
        message_id: m.message_id,
        body: {
          flag: true,
          reason: 'Refunds: the message says "refund"',
          flagged_by: 'rule:Refunds',
          rule_id: rules[0].rule_id,
          unless_flagged_before: true,
        },
      },
    ]);
    expect((await jobs(org))[0]).toMatchObject({ state: 'done', outcome: 'flagged', attempts: 1 });
  });

  it('a waiting rule flags a message left unanswered; a reply in time cancels it', async () => {
    const { org } = await orgWith([{ name: 'Waiting', kind: 'waiting', minutes: 3, enabled: true }]);
    const [late, answered] = [chat(), chat()];
    const now = Date.now();
    const a = msg(org, late, now - 100);
    const b = msg(org, answered, now - 100);
    await apply([a, b], { minuteMs: 1000 });
    expect((await jobs(org)).map((j) => j.due_at.getTime())).toEqual([now - 100 + 3000, now - 100 + 3000]);
    await apply([msg(org, answered, now + 50, { from_me: true })]);
    const x = chats();
    expect(await runDue(deps(x.flag))).toEqual([]);
    await new Promise((r) => setTimeout(r, Math.max(0, now + 3000 - Date.now()) + 50));
    await runDue(deps(x.flag));
    expect(x.calls.map((c) => c.message_id)).toEqual([a.message_id]);
    const states = Object.fromEntries((await jobs(org)).map((j) => [j.message_id, [j.state, j.outcome]]));
    expect(states).toEqual({ [a.message_id]: ['done', 'flagged'], [b.message_id]: ['cancelled', 'answered'] });
  });

  it("a waiting rule counts the organization's business hours when it has a schedule; wall-clock time otherwise", async () => {
    const { org, rules } = await orgWith([{ name: 'Waiting', kind: 'waiting', minutes: 2, enabled: true }]);
    const { org: plain } = await orgWith([{ name: 'Waiting', kind: 'waiting', minutes: 2, enabled: true }]);
    const day = [{ start: '09:00', end: '17:00' }];
    const weekly = { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day, saturday: [], sunday: [] };
    await new BusinessHoursRepository(t.prisma).put(org, { time_zone: 'Europe/Paris', weekly, holidays: ['2026-11-30'] });
    // Friday 2026-11-27 16:59:30 in Paris (15:59:30 UTC): 30 s of Friday left, Monday a holiday → Tuesday 09:01:30 Paris
    const friday = Date.parse('2026-11-27T15:59:30Z');
    await t.prisma.analyticsFlagRule.updateMany({
      where: { org_id: { in: [org, plain] } },
      data: { created_at: new Date(friday - 60_000) },
    });
    const [a, b] = [msg(org, chat(), friday), msg(plain, chat(), friday)];
    await apply([a, b, a], { now: friday + 1_000, minuteMs: 60_000 });
    expect((await jobs(org)).map((j) => [j.rule_id, j.due_at.toISOString(), j.reason])).toEqual([
      [rules[0].rule_id, '2026-12-01T08:01:30.000Z', 'Waiting: no reply within 2 minutes of business hours'],
    ]);
    expect((await jobs(plain)).map((j) => [j.due_at.getTime() - friday, j.reason])).toEqual([
      [120_000, 'Waiting: no reply within 2 minutes'],
    ]);
    // a reply before the business deadline (Monday, a holiday) still cancels it
    await apply([msg(org, a.chat_id, Date.parse('2026-11-30T10:00:00Z'), { from_me: true })], { now: friday + 2_000 });
    expect((await jobs(org)).map((j) => [j.state, j.outcome])).toEqual([['cancelled', 'answered']]);
  });

  it('a reply unflags a message flagged before it, whichever event comes first; a flag set after the reply stays', async () => {
    const org = (await createOrg(t.prisma)).id;
    const now = Date.now();
    const [c1, c2, c3] = [chat(), chat(), chat()];
    const m1 = msg(org, c1, now - 60_000);
    const r1 = msg(org, c1, now - 10_000, { from_me: true });
    await apply([state(m1, true, now - 30_000, now - 30_000)]);
    await apply([r1]);
    const m2 = msg(org, c2, now - 60_000);
    const r2 = msg(org, c2, now - 10_000, { from_me: true });
    await apply([r2]);
    await apply([state(m2, true, now - 30_000, now - 5_000)]);
    const m3 = msg(org, c3, now - 60_000);
    await apply([msg(org, c3, now - 20_000, { from_me: true })]);
    await apply([state(m3, true, now - 5_000, now - 5_000)]);
    await apply([r1, state(m2, true, now - 30_000, now - 5_000)]); // redelivered: nothing more
    expect((await jobs(org)).map((j) => [j.action, j.message_id, j.response_id]).sort()).toEqual(
      [
        ['unflag', m1.message_id, r1.message_id],
        ['unflag', m2.message_id, r2.message_id],
      ].sort(),
    );
    const x = chats();
    await runDue(deps(x.flag));
    expect(x.calls.find((c) => c.message_id === m1.message_id)?.body).toEqual({
      flag: false,
      response: { type: 'message', response_id: r1.message_id, response_timestamp: new Date(r1.at).toISOString(), response_phone: PHONE },
    });
  });

  it('a worker killed mid-job leaves it to the next claimer after the lease; a disabled rule flags nothing', async () => {
    const { org, rules } = await orgWith([
      { name: 'Urgent', kind: 'keyword', keywords: ['urgent'], enabled: true },
      { name: 'Off later', kind: 'keyword', keywords: ['urgent'], enabled: true },
    ]);
    await apply([msg(org, chat(), Date.now() - 100, { body: 'URGENT' })]);
    await new FlagRuleRepository(t.prisma).update(org, rules[1].rule_id, { enabled: false });
    const [held] = await claimFlagJobs(t.prisma as PrismaClient, 100, 300); // "killed": never ended
    expect(held).toMatchObject({ rule_id: rules[0].rule_id, attempts: 1 });
    expect(await claimFlagJobs(t.prisma as PrismaClient, 100, 300)).toEqual([]);
    await new Promise((r) => setTimeout(r, 400));
    const x = chats();
    const again = await runDue(deps(x.flag));
    expect(again.map((j) => [j.job_id, j.attempts])).toEqual([[held.job_id, 2]]);
    expect(x.calls).toHaveLength(1);
    expect((await jobs(org)).map((j) => j.state)).toEqual(['done']);
  });

  it('the model flags with its reason; a model that errors or hangs is retried then given up, and the keyword flag is not lost', async () => {
    const model = await fakeModel();
    try {
      const { org } = await orgWith([
        { name: 'Mood', kind: 'model', prompt: 'the customer is angry', enabled: true },
        { name: 'Refunds', kind: 'keyword', keywords: ['refund'], enabled: true },
      ]);
      const client = new ChatCompletionsClient({ baseUrl: model.url, model: 'fake', timeoutMs: 300, maxTokens: 50, temperature: 0 });
      const angry = msg(org, chat(), Date.now() - 100, { body: 'Third time I ask!' });
      await apply([angry], { modelOn: true });
      const x = chats();
      await runDue(deps(x.flag, client));
      expect(x.calls[0].body).toMatchObject({ flag: true, reason: 'Mood: The customer is angry', flagged_by: 'model:fake' });
      expect((await jobs(org))[0]).toMatchObject({ state: 'done', outcome: 'flagged', body: null });

      model.state.reply = '{"flag": false}';
      const calm = msg(org, chat(), Date.now() - 100, { body: 'thanks a lot' });
      await apply([calm], { modelOn: true });
      await runDue(deps(x.flag, client));
      expect(x.calls.map((c) => c.message_id)).toEqual([angry.message_id]);

      for (const mode of ['error', 'hang'] as const) {
        model.state.mode = mode;
        const both = msg(org, chat(), Date.now() - 100, { body: 'refund, now' });
        await apply([both], { modelOn: true });
        const first = await runDue(deps(x.flag, client, 2));
        expect(first).toHaveLength(2);
        expect(x.calls.filter((c) => c.message_id === both.message_id).map((c) => c.body.flagged_by)).toEqual(['rule:Refunds']);
        const modelJob = (await jobs(org)).find((j) => j.message_id === both.message_id && j.body !== null);
        if (!modelJob) throw new Error('no model job');
        expect(modelJob).toMatchObject({ state: 'pending', attempts: 1 });
        expect(modelJob.outcome).toMatch(mode === 'error' ? /answered 500/ : /did not answer within 300 ms/);
        await t.prisma.analyticsFlagJob.update({ where: { job_id: modelJob.job_id }, data: { lease_until: new Date(Date.now() - 1) } });
        await runDue(deps(x.flag, client, 2));
        expect(await t.prisma.analyticsFlagJob.findUnique({ where: { job_id: modelJob.job_id } })).toMatchObject({
          state: 'failed',
          attempts: 2,
          body: null,
        });
      }
      // no model configured: a model rule arms nothing, the keyword rule still does
      await apply([msg(org, chat(), Date.now() - 100, { body: 'refund' })], { modelOn: false });
      const armed = (await jobs(org)).filter((j) => j.state === 'pending');
      expect(armed.map((j) => j.body)).toEqual([null]);
    } finally {
      await model.stop();
    }
  });

  it('rule routes: organizations apart, phone-limited tokens narrowed, a field of another kind refused, at most 100', async () => {
    const { CreateFlagRule } = await import('../usecases/create-flag-rule/create-flag-rule.usecase');
    const { GetFlagRule } = await import('../usecases/get-flag-rule/get-flag-rule.usecase');
    const { ListFlagRules } = await import('../usecases/list-flag-rules/list-flag-rules.usecase');
    const { UpdateFlagRule } = await import('../usecases/update-flag-rule/update-flag-rule.usecase');
    const { DeleteFlagRule } = await import('../usecases/delete-flag-rule/delete-flag-rule.usecase');
    const repo = new FlagRuleRepository(t.prisma);
    const status = (p: Promise<unknown>) =>
      p.then(
        () => 200,
        (e: { status?: number }) => e.status ?? 500,
      );
    const [org, other] = [(await createOrg(t.prisma)).id, (await createOrg(t.prisma)).id];
    const { rule } = await new CreateFlagRule(repo, false).execute({
      ctx: ctxOf(org),
      body: { name: 'AI', kind: 'model', prompt: 'angry', enabled: true },
    });
    expect(rule).toMatchObject({ org_id: org, kind: 'model', prompt: 'angry', keywords: null, active: false });
    expect((await new GetFlagRule(repo, true).execute({ ctx: ctxOf(org), params: { rule_id: rule.rule_id } })).rule.active).toBe(true);
    const params = { rule_id: rule.rule_id };
    expect(await status(new GetFlagRule(repo, false).execute({ ctx: ctxOf(other), params }))).toBe(404);
    expect(await status(new UpdateFlagRule(repo, false).execute({ ctx: ctxOf(other), params, body: { enabled: false } }))).toBe(404);
    expect(await status(new DeleteFlagRule(repo, false).execute({ ctx: ctxOf(other), params }))).toBe(404);
    expect((await new ListFlagRules(repo, false).execute({ ctx: ctxOf(other) })).rules).toEqual([]);
    expect((await repo.get(org, rule.rule_id))?.enabled).toBe(true);
    const refused = await new UpdateFlagRule(repo, false).execute({ ctx: ctxOf(org), params, body: { minutes: 5 } }).catch((e) => e);
    expect(refused).toMatchObject({
      status: 422,
      fields: { minutes: { message: 'minutes does not apply to a model rule (it takes prompt)' } },
    });
    // a token limited to phone p1: 403 for an organization-wide rule, 404 for another phone's
    const scoped = ctxOf(org, ['p1']);
    expect(
      await status(
        new CreateFlagRule(repo, false).execute({ ctx: scoped, body: { name: 'x', kind: 'label', label_id: 'vip', enabled: true } }),
      ),
    ).toBe(403);
    expect(
      await status(
        new CreateFlagRule(repo, false).execute({
          ctx: scoped,
          body: { name: 'x', kind: 'label', label_id: 'vip', phone_id: 'p2', enabled: true },
        }),
      ),
    ).toBe(404);
    const mine = await new CreateFlagRule(repo, false).execute({
      ctx: scoped,
      body: { name: 'x', kind: 'label', label_id: 'vip', phone_id: 'p1', enabled: true },
    });
    expect(await status(new UpdateFlagRule(repo, false).execute({ ctx: scoped, params, body: { name: 'y' } }))).toBe(403);
    expect((await new ListFlagRules(repo, false).execute({ ctx: ctxOf(org, ['p2']) })).rules.map((r) => r.rule_id)).toEqual([rule.rule_id]);
    expect(await status(new GetFlagRule(repo, false).execute({ ctx: ctxOf(org, ['p2']), params: { rule_id: mine.rule.rule_id } }))).toBe(
      404,
    );
    expect((await new DeleteFlagRule(repo, false).execute({ ctx: ctxOf(org), params })).rule.rule_id).toBe(rule.rule_id);
    expect(await repo.get(org, rule.rule_id)).toBeNull();
    for (let i = 0; i < 99; i++) await repo.create(org, { name: `k${i}`, kind: 'keyword', keywords: ['x'], enabled: true });
    const full = await new CreateFlagRule(repo, false)
      .execute({ ctx: ctxOf(org), body: { name: 'one more', kind: 'keyword', keywords: ['x'], enabled: true } })
      .catch((e) => e);
    expect(full).toMatchObject({ status: 422, fields: { name: expect.anything() } });
  });
});
