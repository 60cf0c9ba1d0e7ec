import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { callbackPayload, graphTemplate, newWamid, randomDigits, statusValue, textMessageValue, type FakeGraphApi } from '@mapi/testing';
import { cloudApiNumber, startCloudApiWorld, type CloudApiWorld } from './support/cloud-api';
import { client, until } from './support/http';
import { priceBotWorkflow } from './support/price-bot';
import { connectedSandboxPhone } from './support/queue-phone';
import type { Stack } from './support/stack';

/**
 * A WhatsApp Business Cloud API phone end to end (issue 35): gateway, chats, phones and queue as
 * processes, Meta played by a fake Graph API the test starts. Created with its credentials (never
 * answered back), connected when the Graph API accepts the token, Meta's handshake, a signed
 * callback read through GET messages (a retry counted once), a received image fetched into storage,
 * a reply through the send queue seen at the fake with its context, statuses moving the ack (out of
 * order), media uploaded and linked, a throttled send retried, the 24-hour window failing free text
 * with its reason while a template goes (the window known closed and the callbacks' rate limit:
 * cloud-api-window.e2e-spec.ts), the read mark of the customer's latest message when the chat is read,
 * templates listed, unsigned and mis-signed callbacks refused, no secret in any log, a workflow's auto-reply,
 * groups refused, and another organization shut out.
 */
describe('Cloud API phone', () => {
  let w: CloudApiWorld;
  let stack: Stack;
  let graph: FakeGraphApi;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let phoneId: string;
  const { number, creds } = cloudApiNumber();
  const customer = randomDigits();
  const chat = `${customer}@c.us`;
  const signBody = (raw: Buffer, secret: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  const webhookUrl = () => `${stack.baseUrl}/v1/cloud-api/webhook/${phoneId}`;
  const messages = () => api.get(`/chats/${chat}/messages`, { 'x-phone': phoneId });
  const messageWith = (pred: (m: any) => boolean, label: string) =>
    until(messages, (r) => r.body?.messages?.some(pred), 15_000, label).then((r) => r.body.messages.find(pred));

  beforeAll(async () => {
    w = await startCloudApiWorld({ number, creds });
    ({ stack, graph, api, other } = w);
  }, 120_000);

  afterAll(() => w?.stop());

  it('is created with its credentials, never answers them back, and connects once the Graph API accepts the token', async () => {
    const created = await api.post('/phones/create', { phone_name: 'Support line', cloud_api: creds });
    expect(created.status).toBe(201);
    phoneId = created.body.phone_id;
    for (const secret of [creds.access_token, creds.app_secret, creds.verify_token])
      expect(JSON.stringify(created.body)).not.toContain(secret);
    const phone = await until(
      () => api.get('/phones', { 'x-phone': phoneId }),
      (r) => r.body?.wa_state === 'CONNECTED',
      15_000,
      'connected',
    );
    expect(phone.body).toMatchObject({ phone_name: 'Support line', org_phone: '15550100000@c.us', is_ready: true });
    expect(graph.requests.some((r) => r.path === `/${number.phone_number_id}` && r.authorization === `Bearer ${creds.access_token}`)).toBe(
      true,
    );
    const bad = await api.post('/phones/create', { cloud_api: { ...creds, phone_number_id: 'not-digits' } });
    expect(bad).toMatchObject({
      status: 422,
      body: { code: 'VALIDATION_ERROR', fields: { 'body.cloud_api.phone_number_id': expect.anything() } },
    });
  });

  it("answers Meta's handshake with the challenge as text, and 403 for a wrong verify token", async () => {
    const q = (token: string) => `hub.mode=subscribe&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`;
    const ok = await fetch(`${webhookUrl()}?${q(creds.verify_token)}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe('1158201444');
    const wrong = await fetch(`${webhookUrl()}?${q('guess')}`);
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ code: 'FORBIDDEN_ERROR', status: 403 });
  });

  let inbound: any;
  let lastInbound = '';
  it('takes a signed callback: the message is readable through GET messages, and Meta’s retry of it counts once', async () => {
    const wamid = newWamid();
    const payload = callbackPayload(number, textMessageValue(customer, 'Where is my order?', { id: wamid, name: 'Kerry' }));
    const answer = await graph.callback(webhookUrl(), payload, creds.app_secret);
    expect(answer.status).toBe(200);
    inbound = await messageWith((m) => m.unique_id === wamid, 'inbound message');
    expect(inbound).toMatchObject({ body: 'Where is my order?', from_me: false, chat_id: chat, sender_phone: chat, message_type: 'chat' });
    expect((await graph.callback(webhookUrl(), payload, creds.app_secret)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect((await messages()).body.messages.filter((m: any) => m.unique_id === wamid)).toHaveLength(1);
  });

  it('fetches a received image from the Graph API into the media storage: the message shows with its link', async () => {
    graph.media.set('media-e2e-1', { mime_type: 'image/png', bytes: Buffer.from('png bytes') });
    const wamid = newWamid();
    const image = { from: customer, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'image' };
    const payload = callbackPayload(number, {
      messages: [{ ...image, image: { id: 'media-e2e-1', mime_type: 'image/png', caption: 'the label' } }],
    });
    expect((await graph.callback(webhookUrl(), payload, creds.app_secret)).status).toBe(200);
    const m = await messageWith((x) => x.unique_id === wamid, 'image message');
    expect(m).toMatchObject({ message_type: 'image', body: 'the label', media: { mimetype: 'image/png', size: 9 } });
    expect(m.media.path).toContain('/app/media/message-media/');
    const stored = join(w.mediaRoot, 'message-media', decodeURIComponent(m.media.path.split('/app/media/message-media/')[1]));
    expect(await readFile(stored, 'utf8')).toBe('png bytes');
  });

  it('refuses an unsigned callback (401) and a mis-signed one (403) in the error envelope, and stores nothing of them', async () => {
    const forged = callbackPayload(number, textMessageValue(customer, 'forged message'));
    const unsigned = await graph.callback(webhookUrl(), forged, creds.app_secret, 'none');
    expect(unsigned.status).toBe(401);
    expect(JSON.parse(unsigned.body)).toMatchObject({ code: 'UNAUTHORIZED_ERROR', status: 401 });
    const misSigned = await graph.callback(webhookUrl(), forged, creds.app_secret, 'bad');
    expect(misSigned.status).toBe(403);
    expect(JSON.parse(misSigned.body)).toMatchObject({ code: 'FORBIDDEN_ERROR', status: 403 });
    // the signature is over the bytes as sent: an indented body signed as it is goes through (not re-serialized first)
    const pretty = Buffer.from(JSON.stringify(callbackPayload(number, textMessageValue(customer, 'indented body')), null, 2));
    const signedPretty = await fetch(webhookUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signBody(pretty, creds.app_secret) },
      body: pretty,
    });
    expect(signedPretty.status).toBe(200);
    await messageWith((m) => m.body === 'indented body', 'indented body');
    // a signed message sent after them arrives; the forged ones never do
    const marker = newWamid();
    await graph.callback(
      webhookUrl(),
      callbackPayload(number, textMessageValue(customer, 'after the forgeries', { id: marker })),
      creds.app_secret,
    );
    await messageWith((m) => m.unique_id === marker, 'marker');
    expect((await messages()).body.messages.some((m: any) => m.body === 'forged message')).toBe(false);
    lastInbound = marker;
  });

  it("marks the customer's latest message read at Meta when the chat is read (POST /chats/{chat_id}/read)", async () => {
    const read = await api.post(`/chats/${chat}/read`, {}, { 'x-phone': phoneId });
    expect(read.status).toBe(200);
    const mark = await until(
      async () => graph.reads.find((r) => r.message_id === lastInbound),
      (r) => !!r,
      15_000,
      'the read mark at the fake',
    );
    expect(mark).toEqual({ phone_number_id: number.phone_number_id, message_id: lastInbound });
    const sent = graph.requests.filter((r) => r.body?.status === 'read');
    expect(sent.at(-1)?.body).toEqual({ messaging_product: 'whatsapp', status: 'read', message_id: lastInbound });
    // a chat this phone does not have is 404, and nothing goes to Meta
    const before = graph.reads.length;
    expect((await api.post(`/chats/${randomDigits()}@c.us/read`, {}, { 'x-phone': phoneId })).status).toBe(404);
    await new Promise((r) => setTimeout(r, 300));
    expect(graph.reads).toHaveLength(before);
  });

  it('replies through the send queue: Meta gets the text with its context, and status callbacks move the ack (out of order too)', async () => {
    const sent = await api.post(
      '/message/send',
      { chat_id: customer, message: 'It ships today', reply_to: inbound.message_id },
      { 'x-phone': phoneId },
    );
    expect(sent.status).toBe(200);
    const acceptedOrNone = await until(
      async () => graph.accepted.find((a) => (a.body.text as { body?: string } | undefined)?.body === 'It ships today'),
      (a) => !!a,
      15_000,
      'the send at the fake',
    );
    if (!acceptedOrNone) throw new Error('not accepted');
    const accepted = acceptedOrNone;
    expect(accepted.body).toMatchObject({
      messaging_product: 'whatsapp',
      to: customer,
      type: 'text',
      context: { message_id: inbound.unique_id },
    });
    const mine = await messageWith((m) => m.sent_message_id === sent.body.queue_id, 'sent message');
    expect(mine).toMatchObject({ unique_id: sent.body.unique_id, from_me: true, ack: '0', body: 'It ships today' });

    await graph.callback(webhookUrl(), callbackPayload(number, statusValue(accepted.wamid, customer, 'delivered')), creds.app_secret);
    await messageWith((m) => m.unique_id === sent.body.unique_id && m.ack === '2', 'ack 2');
    // read, then a late "sent": the ack only moves up
    await graph.callback(webhookUrl(), callbackPayload(number, statusValue(accepted.wamid, customer, 'read')), creds.app_secret);
    await graph.callback(webhookUrl(), callbackPayload(number, statusValue(accepted.wamid, customer, 'sent')), creds.app_secret);
    const read = await messageWith((m) => m.unique_id === sent.body.unique_id && m.ack === '3', 'ack 3');
    await new Promise((r) => setTimeout(r, 500));
    expect((await messages()).body.messages.find((m: any) => m.unique_id === read.unique_id).ack).toBe('3');
  });

  it('sends media: a file given inline is uploaded and sent by its id, a url is sent as a link', async () => {
    const filedata = Buffer.from('\x89PNG label bytes').toString('base64');
    const inline = await api.post(
      '/message/send',
      { chat_id: customer, message: 'your label', media: { filename: 'label.png', mimetype: 'image/png', filedata } },
      { 'x-phone': phoneId },
    );
    const linked = await api.post(
      '/message/send',
      { chat_id: customer, media: { url: 'https://files.example.com/terms.pdf', filename: 'terms.pdf', mimetype: 'application/pdf' } },
      { 'x-phone': phoneId },
    );
    expect([inline.status, linked.status]).toEqual([200, 200]);
    const byId = await until(
      async () => graph.accepted.find((a) => (a.body.image as { caption?: string } | undefined)?.caption === 'your label'),
      (a) => !!a,
      15_000,
      'the uploaded image sent',
    );
    const upload = graph.uploads.find((u) => u.id === (byId?.body.image as { id?: string }).id);
    expect(upload?.raw.includes('PNG label bytes')).toBe(true);
    const byLink = await until(
      async () => graph.accepted.find((a) => a.body.type === 'document' && a.body.to === customer),
      (a) => !!a,
      15_000,
      'the linked document sent',
    );
    expect(byLink?.body.document).toEqual({ link: 'https://files.example.com/terms.pdf', filename: 'terms.pdf' });
  });

  it('retries a rate limit (Meta 130429) after a pause of the phone, without using an attempt', async () => {
    graph.failNext({ status: 400, code: 130429, message: 'Rate limit hit' });
    const throttled = await api.post('/message/send', { chat_id: customer, message: 'after a pause' }, { 'x-phone': phoneId });
    const job = await until(
      () => api.get(`/queue/jobs?queue_id=${throttled.body.queue_id}`, { 'x-phone': phoneId }),
      (r) => r.body?.[0]?.status === 'completed',
      15_000,
      'throttled job completed',
    );
    // the first try was throttled, the second went through; the throttling used no attempt
    expect(graph.requests.filter((r) => (r.body?.text as { body?: string } | undefined)?.body === 'after a pause')).toHaveLength(2);
    expect(job.body[0].attemptsMade).toBe(1);
  });

  it('outside the 24-hour window: free text fails at once with the reason (Meta 131047), an approved template goes', async () => {
    const quiet = randomDigits();
    graph.closedWindows.add(quiet);
    graph.wabas.set(number.waba_id, {
      token: creds.access_token,
      templates: [
        {
          name: 'order_update',
          language: 'en_US',
          status: 'APPROVED',
          category: 'UTILITY',
          components: [{ type: 'BODY', text: 'Hi {{1}}, order {{2}} shipped' }],
        },
        { name: 'draft_promo', language: 'en_US', status: 'PENDING', category: 'MARKETING', components: [] },
      ],
    });
    const listed = await api.get('/cloud-api/templates', { 'x-phone': phoneId });
    expect(listed.status).toBe(200);
    expect(listed.body.templates.map((t: any) => [t.name, t.language, t.status])).toEqual([['order_update', 'en_US', 'APPROVED']]);

    const late = await api.post('/message/send', { chat_id: quiet, message: 'too late' }, { 'x-phone': phoneId });
    const job = await until(
      () => api.get(`/queue/jobs?queue_id=${late.body.queue_id}`, { 'x-phone': phoneId }),
      (r) => r.body?.[0]?.status === 'failed',
      15_000,
      'failed job',
    );
    expect(job.body[0].failed_reason).toMatch(/24 hours.*template.*131047/);
    expect(job.body[0].attemptsMade).toBe(1);

    const template = { name: 'order_update', language: 'en_US', parameters: ['Ann', '#42'] };
    const both = await api.post('/message/send', { chat_id: quiet, message: 'x', template }, { 'x-phone': phoneId });
    expect(both).toMatchObject({ status: 422, body: { code: 'VALIDATION_ERROR' } });
    const sent = await api.post('/message/send', { chat_id: quiet, template }, { 'x-phone': phoneId });
    expect(sent.status).toBe(200);
    const at = await until(
      async () => graph.accepted.find((a) => a.body.to === quiet),
      (a) => !!a,
      15_000,
      'the template at the fake',
    );
    expect(at?.body).toMatchObject({ type: 'template', template: graphTemplate('order_update', 'en_US', ['Ann', '#42']) });
    const stored = await until(
      () => api.get(`/chats/${quiet}@c.us/messages`, { 'x-phone': phoneId }),
      (r) => r.body?.messages?.some((m: any) => m.sent_message_id === sent.body.queue_id),
      15_000,
      'template message',
    );
    expect(stored.body.messages.find((m: any) => m.sent_message_id === sent.body.queue_id)).toMatchObject({
      message_type: 'template',
      from_me: true,
    });
  });

  it('refuses templates on a phone that is not a Cloud API phone: listing 422, a send fails saying so', async () => {
    const sandbox = await api.post('/phones/create', { phone_name: 'Sandbox' });
    const listed = await api.get('/cloud-api/templates', { 'x-phone': sandbox.body.phone_id });
    expect(listed).toMatchObject({ status: 422, body: { code: 'VALIDATION_ERROR', fields: { 'x-phone': expect.anything() } } });
    const { phoneId: sandboxPhone } = await connectedSandboxPhone(api);
    const template = { name: 'order_update', language: 'en_US' };
    const sent = await api.post('/message/send', { chat_id: customer, template }, { 'x-phone': sandboxPhone });
    const job = await until(
      () => api.get(`/queue/jobs?queue_id=${sent.body.queue_id}`, { 'x-phone': sandboxPhone }),
      (r) => r.body?.[0]?.status === 'failed',
      15_000,
      'refused template job',
    );
    expect(job.body[0].failed_reason).toMatch(/Templates are sent by Cloud API phones only/);
  });

  it('is out of reach of another organization: its phone, messages and sends answer 401 or nothing', async () => {
    expect((await other.get('/phones', { 'x-phone': phoneId })).status).toBe(401);
    expect((await other.post('/message/send', { chat_id: customer, message: 'x' }, { 'x-phone': phoneId })).status).toBe(401);
    const theirs = await other.get(`/chats/${chat}/messages`);
    expect(JSON.stringify(theirs.body ?? '')).not.toContain('Where is my order?');
    expect((await other.get('/phones/all')).body).toEqual([]);
    expect((await other.get('/cloud-api/templates', { 'x-phone': phoneId })).status).toBe(401);
  });

  it("logs none of the phone's secrets, in any process", () => {
    const lines = Object.values(stack.apps)
      .concat(stack.gateway)
      .flatMap((app) => app.lines);
    expect(lines.length).toBeGreaterThan(0);
    for (const secret of [creds.access_token, creds.app_secret, creds.verify_token])
      expect(lines.filter((l) => l.includes(secret))).toEqual([]);
  });

  it("runs a workflow's auto-reply on a received message, sent through the Cloud API with no change above the connector", async () => {
    const reply = 'Our price list is on its way.';
    const created = await api.post('/workflows/create', priceBotWorkflow(reply));
    expect(created.status).toBe(201);
    const asker = randomDigits();
    await graph.callback(webhookUrl(), callbackPayload(number, textMessageValue(asker, 'What is the price?')), creds.app_secret);
    const sent = await until(
      async () => graph.accepted.find((a) => a.body.to === asker),
      (a) => !!a,
      20_000,
      'the auto-reply at the fake',
    );
    expect(sent?.body).toMatchObject({ type: 'text', text: { body: reply } });
  });

  it('answers what the Cloud API cannot do with a 400 that says so (groups)', async () => {
    const group = await api.post('/chats/create', { group_name: 'Team', participants: [customer] }, { 'x-phone': phoneId });
    expect(group.status).toBe(400);
    expect(group.body).toMatchObject({ code: 'ERROR', message: expect.stringMatching(/Cloud API cannot create groups/) });
  });
});
