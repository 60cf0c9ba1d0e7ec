import { writeEvents } from '@mapi/events';
import { AppProcess, createOrg, createToken, stubEvents } from '@mapi/testing';
import { client, until } from './http';
import { startStack, type Stack } from './stack';

/** The dispatcher's settings for sink tests: brokers on 127.0.0.1 allowed, short leases and retries. */
export const SINK_STACK_ENV = {
  BAILEYS_AUTH_KEY: Buffer.alloc(32, 5).toString('base64'),
  WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
  WEBHOOK_CLAIM_LEASE_MS: '5000',
  WEBHOOK_INTAKE_ACK_WAIT_MS: '3000',
  WEBHOOK_POLL_INTERVAL_MS: '50',
  WEBHOOK_DELIVERY_TIMEOUT_MS: '5000',
  WEBHOOK_RETRY_SCHEDULE_MS: '0,500,1000,2000,3000,5000,5000,5000',
  WEBHOOK_ENDPOINT_RATE_PER_SECOND: '100000',
};

/** What a sink test's broker consumer saw of one message: the body's ids, in arrival order. */
export interface Arrival {
  event_id: string;
  chat: string;
  n: number;
}

export const arrival = (body: string): Arrival => {
  const b = JSON.parse(body);
  return { event_id: b.event_id, chat: b.data?.chat_id, n: b.data?.n };
};

/** A stack with the dispatcher in every role, and an organization with an API client. */
export async function sinkStack() {
  const stack: Stack = await startStack(SINK_STACK_ENV, { services: ['webhooks-dispatcher'] });
  const org = await createOrg(stack.prisma);
  const api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
  let dispatcher: AppProcess = stack.apps['webhooks-dispatcher'];
  return {
    stack,
    api,
    orgId: org.id,
    get dispatcher() {
      return dispatcher;
    },
    /** SIGKILL (nothing flushed, leases left behind) and a new dispatcher at once. */
    async killDispatcher() {
      await dispatcher.kill();
      dispatcher = await stack.startService('webhooks-dispatcher');
    },
  };
}

/**
 * Writes `total` message.created events of `orgId` to the outbox in batches, over `chats` chats
 * (data: chat_id, n = the order within the whole stream); `afterBatch` runs after each batch.
 */
export async function emit(
  stack: Stack,
  orgId: string,
  total: number,
  options: {
    chats?: number;
    batch?: number;
    type?: 'message.created' | 'chat.created' | 'message.updated';
    afterBatch?: (i: number) => Promise<void>;
  } = {},
): Promise<void> {
  const { chats = 4, batch = 50, type = 'message.created' } = options;
  for (let written = 0, i = 0; written < total; i++) {
    const n = Math.min(batch, total - written);
    await stack.prisma.$transaction((tx) =>
      writeEvents(
        tx,
        stubEvents(
          Array.from({ length: n }, (_, k) => ({
            type,
            org_id: orgId,
            phone_id: null,
            data: { chat_id: `chat-${(written + k) % chats}`, n: written + k },
          })),
        ),
      ),
    );
    written += n;
    await options.afterBatch?.(i);
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** The ids of the organization's events of `type` in the outbox. */
export async function emittedIds(stack: Stack, orgId: string, type = 'message.created'): Promise<Set<string>> {
  return new Set((await stack.prisma.outboxEvent.findMany({ where: { org_id: orgId, type }, select: { id: true } })).map((e) => e.id));
}

/** Waits until every emitted id arrived; fails naming how many are missing. Every arrival must be an emitted id. */
export async function expectEvery(arrivals: Arrival[], emitted: Set<string>, timeoutMs = 90_000): Promise<void> {
  const seen = () => new Set(arrivals.map((a) => a.event_id));
  await until(
    async () => [...emitted].filter((id) => !seen().has(id)).length,
    (missing) => missing === 0,
    timeoutMs,
    'every event at the broker',
  );
  for (const a of arrivals) if (!emitted.has(a.event_id)) throw new Error(`an event that was not emitted arrived: ${a.event_id}`);
}

/** Per chat, how often a first arrival came after a later event of the same chat (0: in order per chat). */
export function outOfOrder(arrivals: Arrival[]): number {
  const firstSeen = new Set<string>();
  const last = new Map<string, number>();
  let inversions = 0;
  for (const a of arrivals) {
    if (firstSeen.has(a.event_id)) continue;
    firstSeen.add(a.event_id);
    if ((last.get(a.chat) ?? -1) > a.n) inversions++;
    else last.set(a.chat, a.n);
  }
  return inversions;
}

/** Waits for a sink's delivery log to show a failed attempt, and answers it. */
export async function failedAttempt(api: ReturnType<typeof client>, sinkId: string) {
  const log = await until(
    async () => (await api.get(`/event-sinks/${sinkId}/deliveries`)).body,
    (b) => b.count > 0,
    30_000,
    'a logged attempt',
  );
  return log.attempts[0];
}
