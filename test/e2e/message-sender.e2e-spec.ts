import { PeriskopeApi } from '@periskope/periskope-client';
import { createOrg, createToken, randomDigits } from '@mapi/testing';
import createClient from 'openapi-fetch';
import { joinByInvitation, type ConsoleSession } from './support/console-session';
import { client, until } from './support/http';
import { dataOf } from './support/public-client-at';
import { connectedSandboxPhone } from './support/queue-phone';
import { startStack, type Stack } from './support/stack';

/** The public client, unchanged, at a stack on another port, sending `headers` (a token's, or a console session's cookies). */
function publicClientWith(baseUrl: string, headers: Record<string, string>): PeriskopeApi {
  const api = new PeriskopeApi({ authToken: 'unused', phone: '', env: 'local' });
  const fetchClient = createClient({ baseUrl: `${baseUrl}/v1`, headers });
  for (const value of Object.values(api as unknown as Record<string, unknown>)) {
    if (value && typeof value === 'object' && 'apiClient' in value) (value as { apiClient: unknown }).apiClient = fetchClient;
  }
  return api;
}

/**
 * Who sent a message (issue 34, docs/services/queue.md "Sender"): sent through the public client by a console member
 * (their session's cookies) and by an API token, each message records its sender in `performed_by` — the member's
 * email, the token's id — from the gateway through the queue (job data, send_jobs) and the phone's session to the
 * stored message, its `message.created` payload (the webhooks' and realtime's data) and the GET routes; a member's
 * forward too. /analytics/team counts each sender's messages. Another organization reads none of it. Gateway,
 * chats, phones (sandbox network), members, queue and analytics as processes.
 */
describe('the sender of a message sent through the API or the console', () => {
  let stack: Stack;
  let api: ReturnType<typeof client>;
  let ana: ConsoleSession;
  const w: Record<string, any> = {};
  const [alice, bob] = [randomDigits(), randomDigits()];
  const inbound = async (contact: string, body: string) => {
    const res = await api.post('/sandbox/messages', { chat_id: contact, body }, { 'x-phone': w.phone });
    await until(
      () => api.get(`/message/${encodeURIComponent(res.body.message_id)}`),
      (r) => r.status === 200,
      15_000,
      'inbound stored',
    );
    return res.body.message_id as string;
  };
  /** The stored message of a send, through the public client's getById (a queue id names the sent message). */
  const sentMessage = (sender: PeriskopeApi, queueId: string) =>
    until(
      () => sender.message.getById({ message_id: queueId }),
      (r) => r.status === 200,
      20_000,
      `message of ${queueId} stored`,
    ).then((r) => r.data as Record<string, any>);

  beforeAll(async () => {
    stack = await startStack(
      { SESSION_SCAN_MS: '200', QUEUE_SEND_INTERVAL_MS: '20', QUEUE_SEND_JITTER_MS: '10', QUEUE_PHONE_SCAN_MS: '200' },
      { services: ['phones', 'members', 'queue', 'analytics'] },
    );
    w.org = await createOrg(stack.prisma);
    const token = await createToken(stack.prisma, w.org.id);
    w.token = token.token;
    w.tokenId = token.id;
    api = client(stack.baseUrl, w.token);
    ({ phoneId: w.phone } = await connectedSandboxPhone(api));
    w.fromAlice = await inbound(alice, 'where is my order?');
    await inbound(bob, 'hello');
    ana = await joinByInvitation(stack.baseUrl, api, { emails: ['ana@example.com'], role: 'admin' }, 'correct horse battery');
    w.asAna = publicClientWith(stack.baseUrl, { cookie: ana.cookie, 'x-csrf-token': ana.csrf, 'x-phone': w.phone });
    w.asToken = publicClientWith(stack.baseUrl, { Authorization: `Bearer ${w.token}`, 'x-phone': w.phone });
  }, 180_000);

  afterAll(() => stack?.stop(), 60_000);

  it("records the member's email and the token's id on their messages, the event and the routes", async () => {
    const byAna = dataOf(await w.asAna.message.send({ chat_id: alice, message: 'On its way, Ana here' } as never), 'send as Ana') as any;
    const mine = await sentMessage(w.asAna, byAna.queue_id);
    // a second later (timestamps are whole seconds): Ana's answer is the chat's first response, the token's comes after it
    await new Promise((r) => setTimeout(r, 1_100));
    const byToken = dataOf(await w.asToken.message.send({ chat_id: alice, message: 'Tracking: 42' } as never), 'send as token') as any;
    const theirs = await sentMessage(w.asToken, byToken.queue_id);
    expect(mine).toMatchObject({ from_me: true, body: 'On its way, Ana here', performed_by: 'ana@example.com' });
    expect(theirs).toMatchObject({ from_me: true, body: 'Tracking: 42', performed_by: w.tokenId });
    expect(JSON.stringify(theirs)).not.toContain(w.token); // the token's id, never the token

    // the chat's messages, through the public client, name both senders (and no one for the customer's)
    const page = dataOf(await w.asToken.chat.getChatMessages({ chat_id: alice, offset: 0, limit: 10 } as never), 'messages') as any;
    const senders = Object.fromEntries((page.messages as any[]).map((m) => [m.body, m.performed_by]));
    expect(senders).toEqual({ 'where is my order?': null, 'On its way, Ana here': 'ana@example.com', 'Tracking: 42': w.tokenId });

    // message.created carries it: the outbox payload is the webhooks' `data` and realtime's message as delivered
    const events = await stack.prisma.$queryRaw<{ sent: string; performed_by: string | null }[]>`
      SELECT payload->>'sent_message_id' AS sent, payload->>'performed_by' AS performed_by FROM outbox_events
       WHERE org_id = ${w.org.id}::uuid AND type = 'message.created' AND payload->>'sent_message_id' IS NOT NULL`;
    expect(Object.fromEntries(events.map((e) => [e.sent, e.performed_by]))).toEqual({
      [byAna.queue_id]: 'ana@example.com',
      [byToken.queue_id]: w.tokenId,
    });

    // the queue's job data names it too (GET /queue/jobs, as the hosted job data does)
    const jobs = dataOf(await w.asToken.queue.getJobs({ queue_id: byAna.queue_id } as never), 'jobs') as any[];
    expect(jobs[0].data).toMatchObject({ chat_id: `${alice}@c.us`, performed_by: 'ana@example.com' });
  }, 60_000);

  it("a member's forward records the member; /analytics/team counts each sender's messages and chats", async () => {
    expect(await w.asAna.message.forward({ message_id: w.fromAlice, forward_chat_ids: [bob] } as never)).toMatchObject({ status: 204 });
    const forwarded = await until(
      () => api.get(`/chats/${bob}@c.us/messages?limit=10`, { 'x-phone': w.phone }),
      (r) => (r.body?.messages ?? []).some((m: any) => m.from_me && m.body === 'where is my order?'),
      20_000,
      'forward stored',
    );
    expect(forwarded.body.messages.find((m: any) => m.from_me)).toMatchObject({ performed_by: 'ana@example.com' });

    // the token's row carries its name, from the members service (a member's row, her email, none)
    await stack.prisma.apiToken.update({ where: { id: w.tokenId }, data: { name: 'Order bot' } });
    const hour = 3_600_000;
    const period = `from=${new Date(Date.now() - hour).toISOString()}&to=${new Date(Date.now() + hour).toISOString()}`;
    const team = await until(
      () => api.get(`/analytics/team?${period}`),
      (r) => r.status === 200 && r.body.members.reduce((n: number, m: any) => n + m.messages_sent, 0) === 3,
      20_000,
      'team figures',
    );
    // Ana answered Alice first and Bob (her forward) first: both first responses are hers; the token's came after hers
    expect(team.body.members).toEqual([
      expect.objectContaining({
        member: 'ana@example.com',
        name: null,
        messages_sent: 2,
        active_chats: 2,
        first_response_ms: expect.objectContaining({ count: 2 }),
      }),
      expect.objectContaining({
        member: w.tokenId,
        name: 'Order bot',
        messages_sent: 1,
        active_chats: 1,
        first_response_ms: { median: null, count: 0 },
      }),
    ]);
  }, 60_000);

  it('another organization reads none of it', async () => {
    const other = await createOrg(stack.prisma);
    const theirToken = (await createToken(stack.prisma, other.id)).token;
    const theirs = publicClientWith(stack.baseUrl, { Authorization: `Bearer ${theirToken}` });
    const sent = (
      await stack.prisma.$queryRaw<{ sent: string }[]>`
      SELECT payload->>'sent_message_id' AS sent FROM outbox_events
       WHERE org_id = ${w.org.id}::uuid AND type = 'message.created' AND payload->>'performed_by' = 'ana@example.com' LIMIT 1`
    )[0].sent;
    const res = await theirs.message.getById({ message_id: sent });
    expect(res.status).toBe(404);
    expect(res.error).toMatchObject({ code: 'NOT_FOUND_ERROR' });
    const hour = 3_600_000;
    const period = `from=${new Date(Date.now() - hour).toISOString()}&to=${new Date(Date.now() + hour).toISOString()}`;
    const team = await client(stack.baseUrl, theirToken).get(`/analytics/team?${period}`);
    expect([team.status, team.body.members]).toEqual([200, []]);
  }, 30_000);
});
