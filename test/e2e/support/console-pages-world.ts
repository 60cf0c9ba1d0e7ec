import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createOrg, createToken, freePort, randomDigits } from '@mapi/testing';
import { launchChromium } from './browser';
import { joinByInvitation, type ConsoleSession } from './console-session';
import { client, until } from './http';
import { connectedSandboxPhone } from './queue-phone';
import { startStack, type Stack } from './stack';
const { startReceiver } = require('../../../bench/webhooks/receiver.js');

export interface ConsolePagesWorld {
  stack: Stack;
  browser: Browser;
  ctx: BrowserContext;
  page: Page;
  consoleUrl: string;
  api: ReturnType<typeof client>;
  receiver: any;
  storageDir: string;
  /** Two connected sandbox phones `a` and `b`, each with a customer's chat (`chatA`, `chatB`). */
  w: Record<string, any>;
}

/** An invitation accepted through the API: the new member's console session. */
export const joinAs = (
  stack: Stack,
  as: ReturnType<typeof client>,
  body: { emails: [string] } & Record<string, unknown>,
  password: string,
): Promise<ConsoleSession> => joinByInvitation(stack.baseUrl, as, body, password);

/**
 * The world of console-pages.e2e: the real stack (phones, members, queue, inbox, webhooks dispatcher,
 * knowledge base and its embedding worker, the console), a local webhook receiver, Chromium, an
 * organization with two connected sandbox phones and a chat on each, and an admin signed in on `page`
 * (`watch` is attached to it before anything loads).
 */
export async function startConsolePagesWorld(password: string, watch: (p: Page) => void): Promise<ConsolePagesWorld> {
  const w: Record<string, any> = {};
  const started = Date.now();
  const port = await freePort();
  const consoleUrl = `http://127.0.0.1:${port}`;
  const storageDir = mkdtempSync(join(tmpdir(), 'console-pages-'));
  const receiver = await startReceiver();
  receiver.script('/hook', () => ({ status: 200, body: 'ok from the receiver' }));
  const env = {
    SESSION_SCAN_MS: '200',
    QUEUE_PHONE_SCAN_MS: '200',
    QUEUE_SEND_INTERVAL_MS: '20',
    QUEUE_SEND_JITTER_MS: '10',
    WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    WEBHOOK_IDLE_POLL_INTERVAL_MS: '200',
    MEDIA_STORAGE_ROOT: storageDir,
    CONSOLE_BASE_URL: `${consoleUrl}/console`,
  };
  // In two waves: nine processes starting at once on a loaded 2-core machine can take NATS past its
  // 5 s request timeout while the first ones create their streams (a service then fails to start).
  const [stack, browser] = await Promise.all([startStack(env, { services: ['phones', 'members', 'queue'] }), launchChromium()]);
  await Promise.all(['inbox', 'webhooks-dispatcher', 'knowledge-base', 'embedding-worker'].map((app) => stack.startService(app)));
  const consoleStarted = stack.startService('console', { PORT: String(port), HOST: '127.0.0.1', CONSOLE_GATEWAY_URL: stack.baseUrl });
  const org = await createOrg(stack.prisma);
  const api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
  // Two phones, each with a customer's chat: the member below reaches only the second.
  [w.a, w.b] = await Promise.all([connectedSandboxPhone(api), connectedSandboxPhone(api)]);
  [w.chatA, w.chatB] = [randomDigits(), randomDigits()];
  await api.post('/sandbox/messages', { chat_id: w.chatA, body: 'Where is my refund?' }, { 'x-phone': w.a.phoneId });
  await api.post('/sandbox/messages', { chat_id: w.chatB, body: 'Hello from B' }, { 'x-phone': w.b.phoneId });
  await until(
    () => api.get('/chats'),
    (r) => r.body?.chats?.length === 2,
    10_000,
    'both chats',
  );
  await Promise.all([joinAs(stack, api, { emails: ['admin@example.com'], role: 'admin' }, password), consoleStarted]);
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  watch(page);
  await page.goto(`${consoleUrl}/console/`);
  await page.getByLabel('Email').fill('admin@example.com');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Phones' }).waitFor({ timeout: 10_000 });
  process.stdout.write(`console pages: stack and sign-in ready in ${Date.now() - started} ms\n`);
  return { stack, browser, ctx, page, consoleUrl, api, receiver, storageDir, w };
}

export async function stopConsolePagesWorld(world: Partial<ConsolePagesWorld>): Promise<void> {
  await world.browser?.close();
  await world.stack?.stop();
  await world.receiver?.close();
  if (world.storageDir) rmSync(world.storageDir, { recursive: true, force: true });
}
