import { randomUUID } from 'node:crypto';
import type { RequestContext } from '@mapi/contracts';
import { randomSuffix, testEnv, useTestDatabase } from '@mapi/testing';
import { IdempotencyStore } from '../../idempotency/idempotency-store';
import { SendRecord } from '../../record/send-record';
import { sendHarness, until } from '../../testing/send-harness';
import { BroadcastMessage } from '../broadcast-message/broadcast-message.usecase';
import { ListJobs } from '../list-jobs/list-jobs.usecase';
import { SendMessage } from './send-message.usecase';

jest.setTimeout(60_000);

/**
 * Who sent a message (its performed_by, docs/services/queue.md "Sender") on the queue's part of the send path: the
 * request's context → the job's data in Redis and in the send_jobs record → the session command. Real Postgres
 * (the record), real Redis and BullMQ workers; the phone's session is the test's (it records each command).
 */
describe('the sender of a send through the queue (integration)', () => {
  const t = useTestDatabase('queue_sender');
  const h = sendHarness(testEnv, { tag: 'qs', db: t });
  const { org, phone } = h;
  const session = h.session;

  const base = { org_id: org, phone_scope: null, phone: { phone_id: phone, org_phone: null } };
  const memberId = randomUUID();
  const asMember: RequestContext = {
    ...base,
    token_id: memberId,
    member: { member_id: memberId, session_id: randomUUID(), email: 'ana@example.com', role: 'member', label_ids: null },
  };
  const tokenId = randomUUID();
  const asToken: RequestContext = { ...base, token_id: tokenId, member: null };
  const asWorkflow: RequestContext = { ...base, token_id: randomUUID(), member: null, actor: 'workflow' };

  it("records a member's email, a token's id and no one for a workflow, from the request to the session command", async () => {
    const idempotency = new IdempotencyStore(h.redis, h.namespace, 600);
    const send = new SendMessage(
      h.queues,
      async () => phone,
      idempotency,
      async () => undefined,
    );
    const broadcast = new BroadcastMessage(h.queues, idempotency, async () => undefined);
    const byMember = await send.execute({ ctx: asMember, body: { chat_id: '15550001111@c.us', message: 'from Ana' } });
    const byToken = await send.execute({ ctx: asToken, body: { chat_id: '15550001111@c.us', message: 'from the integration' } });
    const byWorkflow = await send.execute({
      ctx: asWorkflow,
      body: { chat_id: '15550001111@c.us', message: 'from a workflow' },
      headers: { 'idempotency-key': `workflow-${randomSuffix(6)}` },
    });
    const sent = await broadcast.execute({
      ctx: asMember,
      body: { chat_ids: ['15550002222@c.us', '15550003333@c.us'], message: 'news' },
    });
    const expected = new Map<string, string | null>([
      [byMember.queue_id, 'ana@example.com'],
      [byToken.queue_id, tokenId],
      [byWorkflow.queue_id, null],
      ...sent.jobs.map((j) => [j.queue_id, 'ana@example.com'] as [string, string]),
    ]);

    // the record in Postgres holds it in the job's data (what a rebuild queues again after Redis lost it)
    const rows = await t.prisma.$queryRaw<{ job_id: string; performed_by: string | null }[]>`
      SELECT job_id, data->>'performed_by' AS performed_by FROM send_jobs WHERE phone_id = ${phone}`;
    expect(new Map(rows.map((r) => [r.job_id, r.performed_by]))).toEqual(expected);
    const pending = (await new SendRecord(t.prisma).pending(3_600_000)).filter((j) => j.phone_id === phone);
    expect(new Map(pending.map((j) => [j.job_id, j.data.performed_by]))).toEqual(expected);

    await h.startWorkers();
    await until(() => session.sends.length >= expected.size, 20_000, 'every send');

    // the session command carries it (absent for the workflow's send: the message keeps no sender)
    expect(new Map(session.sends.map((s) => [s.id, s.performed_by ?? null]))).toEqual(expected);
    // GET /queue/jobs shows it in the job's data, as the hosted job data names it
    const listed = await new ListJobs(h.queues).execute({ ctx: asToken, query: {} } as never);
    expect(new Map(listed.map((j) => [j.id, j.data.performed_by]))).toEqual(expected);
    await h.stopWorkers(); // before the database is dropped (the workers mark finished jobs in the record)
  });
});
