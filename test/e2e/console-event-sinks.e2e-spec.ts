import { spawn, type ChildProcess } from 'node:child_process';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { connectAsync, type MqttClient } from 'mqtt';
import { connect as natsConnect, type NatsConnection } from 'nats';
import { createOrg, createToken, freePort, randomSuffix } from '@mapi/testing';
import { checkPage, launchChromium } from './support/browser';
import { browserCookies, joinByInvitation } from './support/console-session';
import { SINK_STACK_ENV } from './support/event-sinks';
import { client, until } from './support/http';
import { startStack, type Stack } from './support/stack';

/**
 * The console's Event sinks page (issue 36) as an admin uses it, over the real stack (gateway, members,
 * inbox, webhooks dispatcher, the console server) and Debian's Chromium: create an MQTT sink to the
 * machine's Mosquitto and see a task's event arrive at a subscriber and as delivered in the page's log,
 * then redeliver it from the log (it arrives again);
 * create a NATS sink to a nats-server the test starts (user and password) with a wrong password and
 * see the broker's refusal in the log, then give the right one in the edit form (never shown back) and
 * see it delivered; change the event filter, disable and enable, replay an hour, delete. Each page: a
 * screenshot and no serious or critical axe violation.
 */
jest.setTimeout(60_000);

describe('console: event sinks page', () => {
  let stack: Stack;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let consoleUrl: string;
  let api: ReturnType<typeof client>;
  let mqttSub: MqttClient;
  let natsServer: ChildProcess | undefined;
  let natsUrl = '';
  let natsSub: NatsConnection | undefined;
  const prefix = `mapi-console-${randomSuffix(4)}`;
  const mqttArrivals: { topic: string; body: any }[] = [];
  const natsArrivals: { subject: string; body: any }[] = [];
  const w: Record<string, any> = {};
  const PASSWORD = 'correct horse battery';
  const pageErrors: string[] = [];
  const check = async (p: Page, name: string) => [...(await checkPage(p, name)), ...pageErrors.splice(0)];
  const open = async (path: string, heading: string) => {
    await page.goto(`${consoleUrl}/console${path}`);
    await page.getByRole('heading', { name: heading, exact: true }).waitFor({ timeout: 10_000 });
  };
  const newTask = async (title: string) => {
    const res = await api.post('/tasks/create', { title });
    if (res.status !== 200) throw new Error(`task: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.task_id as string;
  };
  /** The first arrival `match` accepts, waited for (a failure names what was waited for). */
  const arrivalOf = async <T>(list: T[], match: (a: T) => boolean, label: string): Promise<T> =>
    (await until(
      async () => list.find(match),
      (a) => a !== undefined,
      20_000,
      label,
    )) as T;
  const outcomeOf = (eventId: string) => page.locator(`tr[data-event-id="${eventId}"]`).first().getByTestId('outcome');

  beforeAll(async () => {
    const port = await freePort();
    consoleUrl = `http://127.0.0.1:${port}`;
    // "The user's" NATS server, with a password the first sink gets wrong.
    const natsPort = await freePort();
    natsUrl = `nats://127.0.0.1:${natsPort}`;
    natsServer = spawn(
      process.env.NATS_SERVER_BIN ?? 'nats-server',
      ['-a', '127.0.0.1', '-p', String(natsPort), '--user', 'crm', '--pass', 'right-password'],
      { stdio: 'ignore' },
    );
    const env = { ...SINK_STACK_ENV, WEBHOOK_IDLE_POLL_INTERVAL_MS: '200', CONSOLE_BASE_URL: `${consoleUrl}/console` };
    [stack, browser] = await Promise.all([startStack(env, { services: ['members', 'inbox', 'webhooks-dispatcher'] }), launchChromium()]);
    const consoleReady = stack.startService('console', { PORT: String(port), HOST: '127.0.0.1', CONSOLE_GATEWAY_URL: stack.baseUrl });
    const org = await createOrg(stack.prisma);
    api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
    mqttSub = await connectAsync('mqtt://127.0.0.1:1883', { clientId: `${prefix}-sub`, clean: true });
    mqttSub.on('message', (topic, payload) => mqttArrivals.push({ topic, body: JSON.parse(payload.toString()) }));
    await mqttSub.subscribeAsync(`${prefix}/#`, { qos: 1 });
    for (let tries = 0; !natsSub; tries++) {
      natsSub = await natsConnect({ servers: natsUrl, user: 'crm', pass: 'right-password', reconnect: false }).catch((e) => {
        if (tries > 50) throw e;
        return new Promise<undefined>((r) => setTimeout(() => r(undefined), 200));
      });
    }
    const sub = natsSub.subscribe(`${prefix}.>`);
    void (async () => {
      for await (const m of sub) natsArrivals.push({ subject: m.subject, body: JSON.parse(new TextDecoder().decode(m.data)) });
    })();
    const [admin] = await Promise.all([
      joinByInvitation(stack.baseUrl, api, { emails: ['admin@example.com'], role: 'admin' }, PASSWORD),
      consoleReady,
    ]);
    ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await ctx.addCookies(browserCookies(admin, consoleUrl));
    page = await ctx.newPage();
    page.on('pageerror', (e) => pageErrors.push(`page error: ${e.message}`));
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await mqttSub?.endAsync();
    await natsSub?.close();
    natsServer?.kill('SIGKILL');
    await stack?.stop();
  }, 60_000);

  it('creates an MQTT sink to Mosquitto; a task event arrives at the subscriber and shows as delivered in the log', async () => {
    await open('/event-sinks', 'Event sinks');
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Event sinks' }).waitFor();
    await page.getByText('No event sinks yet.').waitFor({ timeout: 10_000 });
    const form = page.getByRole('form', { name: 'Create an event sink' });
    await form.getByLabel('Transport').selectOption('mqtt');
    await form.getByLabel('Broker URL').fill('mqtt://127.0.0.1:1883');
    await form.getByLabel(/^Events/).selectOption(['task.created']);
    await form.getByLabel('Name (optional)').fill('Shop bus');
    await form.getByLabel('Topic prefix').fill(prefix);
    await form.getByLabel('MQTT version').selectOption('5');
    await form.getByRole('button', { name: 'Create sink' }).click();
    await page.getByText('Created 1 sink(s)').waitFor({ timeout: 10_000 });
    const row = page.locator('tr[data-sink-id]', { hasText: 'Shop bus' });
    await row.waitFor({ timeout: 10_000 });
    w.mqttSink = await row.getAttribute('data-sink-id');
    expect(await row.textContent()).toContain(`topic ${prefix}/task.created, QoS 1, MQTT 5`);
    expect((await api.get(`/event-sinks/${w.mqttSink}`)).body).toMatchObject({
      transport: 'mqtt',
      event: 'task.created',
      config: { topicPrefix: prefix, protocolVersion: 5 },
      has_credentials: false,
    });
    expect(await check(page, 'sinks-01-list')).toEqual([]);

    // A task is created through the API: task.created goes outbox → dispatcher → Mosquitto → the subscriber.
    w.task = await newTask('Call the supplier');
    const arrived = await arrivalOf(mqttArrivals, (a) => a.body.data?.task_id === w.task, 'task.created at the MQTT subscriber');
    expect(arrived.topic).toBe(`${prefix}/task.created`);
    expect(arrived.body).toMatchObject({ event: 'task.created', org_id: expect.any(String), event_id: expect.any(String) });
    w.mqttEvent = arrived.body.event_id;
    await row.getByRole('link', { name: 'Shop bus' }).click();
    await page.getByRole('heading', { name: 'Event sink', exact: true }).waitFor();
    await until(
      () => outcomeOf(w.mqttEvent).textContent({ timeout: 10_000 }),
      (t) => t === 'delivered · acknowledged by the broker',
      15_000,
      'the delivery in the log',
    );
    expect(await page.getByTestId('latest-failure').count()).toBe(0);
    expect(await check(page, 'sinks-02-log')).toEqual([]);

    // Redeliver from the log: the same event (same event_id) arrives at the subscriber again, the log gains an attempt.
    const attempts = page.locator(`tr[data-event-id="${w.mqttEvent}"]`);
    await attempts
      .first()
      .getByRole('button', { name: /^Redeliver/ })
      .click();
    await page.getByText(`Event ${w.mqttEvent} scheduled again.`).waitFor({ timeout: 10_000 });
    await until(
      async () => mqttArrivals.filter((a) => a.body.event_id === w.mqttEvent).length,
      (n) => n >= 2,
      15_000,
      'the redelivered event at the MQTT subscriber',
    );
    await until(
      () => attempts.count(),
      (n) => n >= 2,
      10_000,
      'two attempts in the log',
    );
  });

  it('shows a wrong NATS password as the broker refusal in the log; the right one, given in the edit form, is never shown back', async () => {
    await open('/event-sinks', 'Event sinks');
    const form = page.getByRole('form', { name: 'Create an event sink' });
    await form.getByLabel('Transport').selectOption('nats');
    await form.getByLabel('Broker URL').fill(natsUrl);
    await form.getByLabel(/^Events/).selectOption(['task.created']);
    await form.getByLabel('Name (optional)').fill('Ops NATS');
    await form.getByLabel('Subject prefix').fill(prefix);
    await form.getByLabel('Username').fill('crm');
    await form.getByLabel('Password').fill('wrong-password');
    await form.getByRole('button', { name: 'Create sink' }).click();
    const row = page.locator('tr[data-sink-id]', { hasText: 'Ops NATS' });
    await row.waitFor({ timeout: 10_000 });
    w.natsSink = await row.getAttribute('data-sink-id');
    expect(await row.locator('td').nth(4).textContent()).toBe('stored');
    const stored = await api.get(`/event-sinks/${w.natsSink}`);
    expect(stored.body.has_credentials).toBe(true);
    expect(JSON.stringify(stored.body)).not.toContain('wrong-password');

    const refusedTask = await newTask('Check the stock');
    await row.getByRole('link', { name: 'Ops NATS' }).click();
    await page.getByRole('heading', { name: 'Event sink', exact: true }).waitFor();
    const notice = page.getByTestId('latest-failure');
    await notice.waitFor({ timeout: 20_000 });
    expect(await notice.textContent()).toMatch(/The latest delivery failed: nats: .*authori[sz]ation[ _]violation/i);
    expect(await notice.textContent()).toContain('The broker refused the credentials');
    const failed = page.locator('tr.failed').first();
    expect(await failed.getByTestId('outcome').textContent()).toMatch(/^failed · nats: .*authori[sz]ation[ _]violation/i);
    expect(await check(page, 'sinks-03-refused')).toEqual([]);
    // The credentials are write-only: their fields are empty, the page holds no password.
    const edit = page.getByRole('form', { name: 'Edit the event sink' });
    expect(await edit.getByLabel('Password').inputValue()).toBe('');
    expect(await page.content()).not.toContain('wrong-password');

    w.refusedBeforeFix = natsArrivals.some((a) => a.body.data?.task_id === refusedTask);
    // The right password, typed into the edit form: saved (PATCH), the field empty again, the retried event delivered.
    await edit.getByLabel('Password').fill('right-password');
    await edit.getByLabel('Username').fill('crm');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await edit.getByLabel('Password').inputValue()).toBe('');
    expect(await page.content()).not.toContain('right-password');
    const okTask = await newTask('Order more boxes');
    const delivered = await arrivalOf(natsArrivals, (a) => a.body.data?.task_id === okTask, 'task.created at the NATS subscriber');
    expect(delivered.subject).toBe(`${prefix}.task.created`);
    await until(
      () => outcomeOf(delivered.body.event_id).textContent({ timeout: 10_000 }),
      (t) => t === 'delivered · acknowledged by the broker',
      15_000,
      'the delivery in the log',
    );
    await notice.waitFor({ state: 'detached', timeout: 10_000 });
    // the refused event was never at the broker before the fix (a retry after it may bring it)
    expect(w.refusedBeforeFix).toBe(false);
  });

  it("changes the MQTT sink's event filter, disables and enables it, replays the last hour", async () => {
    await open(`/event-sinks/${w.mqttSink}`, 'Event sink');
    const edit = page.getByRole('form', { name: 'Edit the event sink' });
    await edit.getByLabel(/^Event/).selectOption('task.updated');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor({ timeout: 10_000 });
    expect((await api.get(`/event-sinks/${w.mqttSink}`)).body.event).toBe('task.updated');
    expect((await api.patch(`/tasks/${w.task}`, { status: 'closed' })).status).toBe(200);
    await arrivalOf(
      mqttArrivals,
      (a) => a.topic === `${prefix}/task.updated` && a.body.data?.task_id === w.task,
      'task.updated at the MQTT subscriber',
    );

    // Disabled: the API says so; a task update then reaches no subscriber until it is enabled.
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Disabled: no event is sent').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('sink-state').textContent()).toBe('disabled');
    expect((await api.get(`/event-sinks/${w.mqttSink}`)).body.is_subscribed).toBe(false);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Enabled.', { exact: true }).waitFor({ timeout: 10_000 });
    expect((await api.get(`/event-sinks/${w.mqttSink}`)).body.is_subscribed).toBe(true);

    // Replay the last hour (the browser's local time): the task.updated event arrives once more.
    const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    const before = mqttArrivals.filter((a) => a.topic === `${prefix}/task.updated`).length;
    await page.getByLabel('Replay events from').fill(local(new Date(Date.now() - 3_600_000)));
    await page.getByLabel('to', { exact: true }).fill(local(new Date(Date.now() + 60_000)));
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.getByText(/^Replay: [1-9]\d* event\(s\) scheduled\.$/).waitFor({ timeout: 10_000 });
    await until(
      async () => mqttArrivals.filter((a) => a.topic === `${prefix}/task.updated`).length,
      (n) => n > before,
      20_000,
      'the replayed event',
    );
  });

  it('deletes a sink from its page and one from the list, each after the confirmation', async () => {
    await open(`/event-sinks/${w.natsSink}`, 'Event sink');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Event sinks', exact: true }).waitFor({ timeout: 10_000 });
    expect((await api.get(`/event-sinks/${w.natsSink}`)).status).toBe(404);
    const listed = page.locator(`tr[data-sink-id="${w.mqttSink}"]`);
    await listed.waitFor({ timeout: 10_000 });
    await listed.getByRole('button', { name: 'Delete' }).click();
    await listed.getByRole('dialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No event sinks yet.').waitFor({ timeout: 10_000 });
    expect((await api.get('/event-sinks')).body).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
