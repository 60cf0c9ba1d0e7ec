import { callbackPayload, randomDigits, textMessageValue, type FakeGraphApi } from '@mapi/testing';
import { cloudApiNumber, connectedCloudApiPhone, startCloudApiWorld, type CloudApiWorld } from './support/cloud-api';
import { until, type client } from './support/http';

/**
 * A Cloud API phone's limits end to end (issue 35, decision 0090): the 24-hour customer-service window
 * known closed from the webhook — free text answered 422 naming the rule at POST /message/send, a
 * broadcast's job failed before Meta, a template sent, the window opened again by the customer; a
 * reaction answered 422 the same way at POST /message/{id}/react, a forward into the chat at
 * POST /message/{id}/forward — and
 * Meta's callbacks over the per-phone rate answered 429, delivered again and counted once.
 */
describe('Cloud API phone: the 24-hour window and the callback rate', () => {
  let w: CloudApiWorld;
  let graph: FakeGraphApi;
  let api: ReturnType<typeof client>;
  let phoneId: string;
  const { number, creds } = cloudApiNumber();
  const webhookUrl = () => `${w.stack.baseUrl}/v1/cloud-api/webhook/${phoneId}`;

  beforeAll(async () => {
    w = await startCloudApiWorld({ number, creds }, { CLOUD_API_CALLBACK_RATE_PER_S: '10' }, ['phones', 'queue']);
    ({ graph, api } = w);
    phoneId = await connectedCloudApiPhone(api, creds);
  }, 120_000);

  afterAll(() => w?.stop());

  it('answers free text 422 at POST /message/send when the customer last wrote over 24 h ago; a broadcast job fails before Meta; a template goes', async () => {
    const stale = randomDigits();
    const old = new Date(Date.now() - 25 * 3600_000);
    const wrote = await graph.callback(
      webhookUrl(),
      callbackPayload(number, textMessageValue(stale, 'old question', { at: old })),
      creds.app_secret,
    );
    expect(wrote.status).toBe(200);
    await until(
      () => api.get(`/chats/${stale}@c.us/messages`, { 'x-phone': phoneId }),
      (r) => r.body?.messages?.length === 1,
      15_000,
      'the old message',
    );
    for (const body of [
      { message: 'are you there?' },
      { media: { url: 'https://files.example.com/a.pdf', filename: 'a.pdf', mimetype: 'application/pdf' } },
    ]) {
      const refused = await api.post('/message/send', { chat_id: stale, ...body }, { 'x-phone': phoneId });
      expect(refused).toMatchObject({
        status: 422,
        body: {
          code: 'VALIDATION_ERROR',
          status: 422,
          message: expect.stringMatching(
            /24-hour customer-service window of this chat is closed .*last wrote at .*only an approved template/,
          ),
          fields: { 'body.chat_id': { message: expect.stringMatching(/24-hour customer-service window/), value: `${stale}@c.us` } },
        },
      });
    }
    // a broadcast is not asked ahead: its job fails at once with the same rule, and nothing reaches Meta
    const broadcast = await api.post('/message/broadcast', { chat_ids: [stale], message: 'news' }, { 'x-phone': phoneId });
    expect(broadcast.status).toBe(200);
    const job = await until(
      () => api.get(`/queue/jobs?queue_id=${broadcast.body.jobs[0].queue_id}`, { 'x-phone': phoneId }),
      (r) => r.body?.[0]?.status === 'failed',
      15_000,
      'the broadcast job failed',
    );
    expect(job.body[0]).toMatchObject({ attemptsMade: 1, failed_reason: expect.stringMatching(/24-hour customer-service window/) });
    expect(graph.requests.filter((r) => r.body?.to === stale)).toEqual([]);
    const template = await api.post(
      '/message/send',
      { chat_id: stale, template: { name: 'order_update', language: 'en_US' } },
      { 'x-phone': phoneId },
    );
    expect(template.status).toBe(200);
    await until(
      async () => graph.accepted.find((a) => a.body.to === stale),
      (a) => !!a,
      15_000,
      'the template to the stale chat',
    );
    // the customer writes again: the window is open, free text is queued and goes
    await graph.callback(webhookUrl(), callbackPayload(number, textMessageValue(stale, 'yes, still interested')), creds.app_secret);
    const again = await api.post('/message/send', { chat_id: stale, message: 'Great!' }, { 'x-phone': phoneId });
    expect(again.status).toBe(200);
    await until(
      async () => graph.accepted.find((a) => a.body.to === stale && a.body.type === 'text'),
      (a) => !!a,
      15_000,
      'free text once the window is open',
    );
  });

  it("answers a reaction or a forward 422 naming the rule outside the chat's 24-hour window (both are free-form messages); inside it goes", async () => {
    const quiet = randomDigits();
    const wrote = await graph.callback(
      webhookUrl(),
      callbackPayload(number, textMessageValue(quiet, 'thanks for the help', { at: new Date(Date.now() - 26 * 3600_000) })),
      creds.app_secret,
    );
    expect(wrote.status).toBe(200);
    const listed = await until(
      () => api.get(`/chats/${quiet}@c.us/messages`, { 'x-phone': phoneId }),
      (r) => r.body?.messages?.length === 1,
      15_000,
      'the old message',
    );
    const old = listed.body.messages[0];
    const before = graph.requests.filter((r) => r.body?.to === quiet).length;
    const refused = await api.post(`/message/${old.message_id}/react`, { reaction: '👍' }, { 'x-phone': phoneId });
    expect(refused).toMatchObject({
      status: 422,
      body: {
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/24-hour customer-service window of this chat is closed .*only an approved template/),
        fields: { message_id: { message: expect.stringMatching(/24-hour customer-service window/), value: old.message_id } },
      },
    });
    expect(graph.requests.filter((r) => r.body?.to === quiet)).toHaveLength(before);
    // a forward into that chat is a free-form send too: 422 on the chat it names, nothing at Meta
    const forwarded = await api.post(`/message/${old.message_id}/forward`, { forward_chat_ids: [`${quiet}@c.us`] }, { 'x-phone': phoneId });
    expect(forwarded).toMatchObject({
      status: 422,
      body: {
        code: 'VALIDATION_ERROR',
        fields: { forward_chat_ids: { message: expect.stringMatching(/24-hour/), value: `${quiet}@c.us` } },
      },
    });
    expect(graph.requests.filter((r) => r.body?.to === quiet)).toHaveLength(before);
    // the customer writes again: the reaction to the old message goes to Meta
    await graph.callback(webhookUrl(), callbackPayload(number, textMessageValue(quiet, 'one more thing')), creds.app_secret);
    await until(
      () => api.get(`/chats/${quiet}@c.us/messages`, { 'x-phone': phoneId }),
      (r) => r.body?.messages?.length === 2,
      15_000,
      'the new message',
    );
    expect((await api.post(`/message/${old.message_id}/react`, { reaction: '👍' }, { 'x-phone': phoneId })).status).toBe(204);
    expect(graph.accepted.find((a) => a.body.to === quiet && a.body.type === 'reaction')?.body).toMatchObject({
      reaction: { message_id: old.unique_id, emoji: '👍' },
    });
  });

  it('limits callbacks per phone: over the rate Meta gets 429 (RATE_LIMIT_ERROR), and its deliveries again count once', async () => {
    const burst = randomDigits();
    const payloads = Array.from({ length: 60 }, (_, i) => callbackPayload(number, textMessageValue(burst, `burst ${i}`)));
    let pending = payloads;
    let limited = 0;
    for (let round = 0; pending.length > 0 && round < 20; round++) {
      const answers = await Promise.all(pending.map((p) => graph.callback(webhookUrl(), p, creds.app_secret)));
      for (const a of answers.filter((x) => x.status === 429)) {
        limited++;
        expect(JSON.parse(a.body)).toMatchObject({ code: 'RATE_LIMIT_ERROR', status: 429, message: expect.stringMatching(/per second/) });
      }
      expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
      pending = pending.filter((_, i) => answers[i].status === 429);
      if (pending.length) await new Promise((r) => setTimeout(r, 1_100)); // Meta backs off, then delivers again
    }
    expect(limited).toBeGreaterThan(0);
    expect(pending).toEqual([]);
    const all = await until(
      () => api.get(`/chats/${burst}@c.us/messages`, { 'x-phone': phoneId }),
      (r) => r.body?.messages?.length >= 60,
      20_000,
      'every burst message',
    );
    const bodies = all.body.messages.map((m: any) => m.body);
    expect(new Set(bodies).size).toBe(60);
    expect(bodies).toHaveLength(60);
  });
});
