import { type WorkflowActionInput } from '@mapi/contracts';
import { createPrismaClient, type Prisma, type PrismaClient } from '@mapi/db';
import type { DomainEvent } from '@mapi/events';
import { randomUUID as newUuid } from 'node:crypto';
import pino from 'pino';
import type { RpcCaller } from '../actions/action-context';
import { RunStore } from '../run-store';
import { StepExecutor, type StepExecutorOptions } from '../step-executor';
import { WorkflowRepository } from '../../repositories/workflow-repository';

/** A queue that keys jobs by Idempotency-Key, as the queue service does; other RPCs scripted per test. */
export class FakeServices implements RpcCaller {
  readonly sends: { key: string; chat_id: string; message: string }[] = [];
  readonly jobs = new Map<string, string>();
  fail: ((subject: string) => Error | null) | null = null;
  readonly chatLabels = new Map<string, Record<string, boolean>>();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each subject's payload, read as the services would
  call = (async (contract: { subject: string }, payload: any) => {
    const failure = this.fail?.(contract.subject);
    if (failure) throw failure;
    if (contract.subject === 'chats.v1.chats.get')
      return { chat_id: payload.params.chat_id, label_ids: this.chatLabels.get(payload.params.chat_id) ?? {} };
    if (contract.subject === 'inbox.v1.labels.list') return { from: 1, to: 1, count: 1, labels: [{ label_id: 'label-1', name: 'vip' }] };
    if (contract.subject !== 'queue.v1.send') throw new Error(`unexpected RPC ${contract.subject}`);
    const key = payload.headers['idempotency-key'];
    this.sends.push({ key, chat_id: payload.body.chat_id, message: payload.body.message });
    if (!this.jobs.has(key)) this.jobs.set(key, newUuid());
    return { queue_id: this.jobs.get(key), queue_position: '1', unique_id: `u-${key.slice(-8)}` };
  }) as RpcCaller['call'];
}

/** A `send_message_to_chat` action to the trigger chat. */
export const send = (id: string, message: string, next: string | null = null): WorkflowActionInput => ({
  id,
  action_metadata: { type: 'send_message_to_chat', metadata: { message, chat_id: 'trigger_chat' } },
  next,
});

export const limits = { runsPerMinute: 10_000, chatRunsPerMinute: 100 };

/** What the harness needs of @mapi/testing's useTestDatabase (which only test files may import). */
interface TestDatabase {
  prisma: PrismaClient;
  db: { url: string };
}

const randomSuffix = (bytes: number) =>
  newUuid()
    .replace(/-/g, '')
    .slice(0, bytes * 2);

/**
 * The engine's integration harness, called inside a describe with its test database: an organization, a
 * second Prisma client (another process's pool), executors stopped after all, and builders of
 * workflows and `message.created` events. Each test sees only its own pending steps and workflows.
 */
export function engineHarness<T extends TestDatabase>(t: T, createOrg: (prisma: PrismaClient) => Promise<{ id: string }>) {
  const logger = pino({ level: 'silent' });
  const executors: StepExecutor[] = [];
  const stops: (() => Promise<unknown>)[] = [];
  // Set in beforeAll; read by the builders below and by the specs.
  const state = { org: '', other: undefined as unknown as PrismaClient };
  const h = {
    t,
    logger,
    get org(): string {
      return state.org;
    },
    get other(): PrismaClient {
      return state.other;
    },
    /** Run after all, before the executors stop (an intake, a NATS connection). */
    onEnd: (stop: () => Promise<unknown>) => void stops.push(stop),
    workflow: async (actions: WorkflowActionInput[], meta: Record<string, unknown> = {}, orgId = state.org) =>
      new WorkflowRepository(t.prisma).create(
        orgId,
        newUuid(),
        {
          name: `wf ${randomSuffix(2)}`,
          trigger: 'message.created',
          is_active: true,
          trigger_metadata: {
            org_phones: [],
            allow_internal_messages: false,
            first_action_id: actions[0]?.id ?? null,
            ...meta,
          } as Prisma.InputJsonValue,
          actions: actions as unknown as Prisma.InputJsonValue,
        },
        'test',
      ),
    message: (over: Record<string, unknown> = {}, orgId = state.org): DomainEvent => ({
      event_id: newUuid(),
      event_type: 'message.created',
      org_id: orgId,
      phone_id: 'phone-1',
      created_at: new Date().toISOString(),
      data: {
        message_id: `m-${randomSuffix(3)}`,
        chat_id: `${Math.floor(Math.random() * 1e12)}@c.us`,
        org_phone: '14155550100',
        sender_phone: '14155550123',
        from_me: false,
        body: 'hello',
        ...over,
      } as never,
    }),
    runsOf: (workflowId: string) => t.prisma.automationRun.findMany({ where: { workflow_id: workflowId } }),
    executor: (db: PrismaClient, rpc: RpcCaller, leaseMs = 30_000, more: Partial<StepExecutorOptions> = {}) => {
      const e = new StepExecutor(new RunStore(db), rpc, logger, {
        batch: 37,
        leaseMs,
        maxAttempts: 3,
        idlePollMs: 30_000,
        fallbackPollMs: 500,
        ...more,
      });
      executors.push(e);
      return e;
    },
    drain: async (...es: StepExecutor[]) => {
      for (;;) {
        const rounds = await Promise.all(es.map((e) => e.round()));
        if (rounds.every((r) => r.ran === 0)) return;
      }
    },
  };
  beforeAll(async () => {
    state.other = createPrismaClient({ url: t.db.url, poolSize: 3 });
    state.org = (await createOrg(t.prisma)).id;
  });
  beforeEach(async () => {
    await t.prisma.$executeRaw`UPDATE automation_steps SET status = 'skipped' WHERE status = 'pending'`;
    await t.prisma.$executeRaw`UPDATE automation_workflows SET is_active = false`;
  });
  afterAll(async () => {
    for (const stop of stops) await stop();
    for (const e of executors) await e.stop();
    await state.other?.$disconnect();
  });
  return h;
}
