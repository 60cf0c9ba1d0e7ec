import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createOrg, createToken, freePort } from '@mapi/testing';
import { launchChromium } from './browser';
import { client } from './http';
import { connectedSandboxPhone } from './queue-phone';
import { startStack, type Stack } from './stack';

/** The inbox's browser specs' world: a stack (phones, members, inbox), the console beside it, Chromium, a token and a phone. */
export interface InboxConsole {
  stack: Stack;
  browser: Browser;
  consoleUrl: string;
  /** Resolves when the console serves its pages (await it before the first page is opened). */
  consoleReady: Promise<unknown>;
  api: ReturnType<typeof client>;
  /** The organization the token and the phone are of. */
  orgId: string;
  phone: Awaited<ReturnType<typeof connectedSandboxPhone>>;
  /** With `media`: the folder the phones write files to and the media service serves (the caller removes it). */
  storageDir: string | null;
}

/**
 * Starts the stack and Chromium together, then the console, an organization, its token and a connected
 * sandbox phone. `more`: services beyond phones, members and inbox and their settings; `sending`: the queue too, at a
 * fast pace (agents send: a send within a few tens of ms, the phone found within 200 ms);
 * `media`: the media service too, on a storage folder the phones write to (files the phone sends), its links
 * through the console (CONSOLE_MEDIA_URL, as the Ingress forwards /app/media).
 */
export async function startInboxConsole(
  more: { services?: string[]; env?: Record<string, string>; media?: boolean; sending?: boolean } = {},
): Promise<InboxConsole> {
  const sendingEnv: Record<string, string> = more.sending
    ? { QUEUE_PHONE_SCAN_MS: '200', QUEUE_SEND_INTERVAL_MS: '20', QUEUE_SEND_JITTER_MS: '10' }
    : {};
  const port = await freePort();
  const consoleUrl = `http://127.0.0.1:${port}`;
  const storageDir = more.media ? mkdtempSync(join(tmpdir(), 'inbox-media-')) : null;
  const mediaEnv: Record<string, string> = storageDir
    ? { MEDIA_STORAGE_BACKEND: 'local', MEDIA_STORAGE_ROOT: storageDir, MEDIA_BASE_URL: consoleUrl }
    : {};
  const [stack, browser] = await Promise.all([
    startStack(
      { SESSION_SCAN_MS: '200', ...mediaEnv, ...sendingEnv, ...more.env },
      { services: ['phones', 'members', 'inbox', ...(more.sending ? ['queue'] : []), ...(more.services ?? [])] },
    ),
    launchChromium(),
  ]);
  const mediaPort = storageDir ? await freePort() : null;
  const consoleReady = Promise.all([
    stack.startService('console', {
      PORT: String(port),
      HOST: '127.0.0.1',
      CONSOLE_GATEWAY_URL: stack.baseUrl,
      ...(mediaPort ? { CONSOLE_MEDIA_URL: `http://127.0.0.1:${mediaPort}` } : {}),
    }),
    ...(mediaPort ? [stack.startService('media', { MEDIA_HTTP_PORT: String(mediaPort), MEDIA_HTTP_HOST: '127.0.0.1' })] : []),
  ]);
  const org = await createOrg(stack.prisma);
  const api = client(stack.baseUrl, (await createToken(stack.prisma, org.id)).token);
  return { stack, browser, consoleUrl, consoleReady, api, orgId: org.id, phone: await connectedSandboxPhone(api), storageDir };
}

/** A new page at `viewport` signed in as `email` (the first page, Phones, shown); page errors go to `errors`. */
export async function signedInPage(
  w: Pick<InboxConsole, 'browser' | 'consoleUrl'>,
  email: string,
  password: string,
  errors: string[],
  viewport = { width: 1280, height: 800 },
): Promise<Page> {
  const page = await (await w.browser.newContext({ viewport })).newPage();
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  await page.goto(`${w.consoleUrl}/console/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Phones' }).waitFor({ timeout: 10_000 });
  return page;
}
