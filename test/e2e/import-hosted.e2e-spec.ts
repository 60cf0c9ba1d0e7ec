import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFsStorage } from '@mapi/storage';
import { createOrg, createToken, createPhone, createMessages, createChat, freePort } from '@mapi/testing';
import { checkPage, launchChromium } from './support/browser';
import { anonymous, joinByInvitation, sessionOf } from './support/console-session';
import { client, expectEnvelope, until } from './support/http';
import { importCli } from './support/import-cli';
import { seedSourceOrg, type SourceOrg } from './support/import-source';
import { dataOf, publicClientAt } from './support/public-client-at';
import { inWindow, startStack, type Stack } from './support/stack';

const SERVICES = ['phones', 'inbox', 'knowledge-base', 'embedding-worker', 'webhooks-dispatcher', 'automation'];

/** Fields that say where a row lives (this deployment's organization), not what it is. */
const PLACE = new Set(['org_id', 'updated_at']);
const strip = (o: Record<string, unknown>, more: string[] = []) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !PLACE.has(k) && !more.includes(k)));
/** A media link without where it lives (host, organization): what stays the same when a file is copied. */
const mediaName = (path: unknown) => (typeof path === 'string' ? path.replace(/^.*\/app\/media\/message-media\/[^/]+\//, '') : path);
const sameWherever = (m: Record<string, any>) => (m.media ? { ...m, media: { ...m.media, path: mediaName(m.media.path) } } : m);
const byKey = <T extends Record<string, any>>(rows: T[], key: string) =>
  [...rows].sort((a, b) => String(a[key]).localeCompare(String(b[key])));

/**
 * Issue 31: stack A plays the hosted service (the same public API), stack B imports its organization
 * over HTTP with `import:hosted`; then every resource is read through the public client from both and
 * compared field by field, and the import is run again, after changes, after a kill, and against bad sources.
 */
describe("import from the hosted service: stack B brings stack A's organization over its public API", () => {
  let a: Stack;
  let b: Stack;
  let source: SourceOrg;
  const w: Record<string, any> = {};
  const args = () => ['--org', w.targetOrg, '--from', `${a.baseUrl}/v1`, '--token', source.token];

  beforeAll(async () => {
    // Each stack its own media app and storage: B copies A's files into its own.
    const media = await Promise.all(
      ['a', 'b'].map(async () => ({ root: mkdtempSync(join(tmpdir(), 'import-media-')), port: await freePort() })),
    );
    const mediaEnv = (m: { root: string; port: number }) => ({ MEDIA_STORAGE_ROOT: m.root, MEDIA_BASE_URL: `http://127.0.0.1:${m.port}` });
    w.media = media;
    // Two stacks of nine and eleven processes: started three at a time, as a loaded 2-core machine
    // brings them up within their readiness timeouts (NATS stream creation is the slow part).
    [a, b] = [
      await startStack(mediaEnv(media[0]), { services: ['phones'] }),
      await startStack({ IMPORT_SOURCE_ALLOW_CIDRS: '127.0.0.1/32', ...mediaEnv(media[1]) }, { services: ['phones'] }),
    ];
    const rest = SERVICES.filter((app) => app !== 'phones');
    const mediaApp = (s: Stack, m: { port: number }) => () =>
      s.startService('media', { MEDIA_HTTP_PORT: String(m.port), MEDIA_HTTP_HOST: '127.0.0.1' });
    const started = await inWindow([
      ...rest.map((app) => () => a.startService(app)),
      ...[...rest, 'importer', 'members'].map((app) => () => b.startService(app)),
      mediaApp(a, media[0]),
      mediaApp(b, media[1]),
    ]);
    w.importer = started[rest.length * 2];
    source = await seedSourceOrg(a, {
      chats: 100,
      perChat: 200,
      media: { storage: new LocalFsStorage(media[0].root), baseUrl: `http://127.0.0.1:${media[0].port}` },
    });
    const target = await createOrg(b.prisma);
    w.targetOrg = target.id;
    w.targetToken = (await createToken(b.prisma, target.id)).token;
    // Another organization of B with its own rows: the import must never touch them.
    const other = await createOrg(b.prisma);
    const otherPhone = await createPhone(b.prisma, other.id);
    const row = { phone_id: otherPhone.phone_id, org_phone: otherPhone.org_phone ?? '' };
    await createMessages(b.prisma, other, row, [{ chatId: source.chats[0], body: "the other organization's message" }]);
    await createChat(b.prisma, other, row, { chatId: source.chats[0] });
    w.other = { id: other.id, phone: otherPhone.phone_id, token: (await createToken(b.prisma, other.id)).token };
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    for (const m of w.media ?? []) rmSync(m.root, { recursive: true, force: true });
  }, 60_000);

  it('a dry run reads everything and writes nothing', async () => {
    const run = await importCli(b, [...args(), '--dry-run', '--json']);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out);
    expect(report).toMatchObject({ status: 'completed', dry_run: true, error: null });
    expect(report.report.messages.read).toBe(source.messages);
    expect(report.report.messages.created).toBe(source.messages);
    expect(report.report.media).toMatchObject({ read: source.media.size, created: source.media.size, failed: 0 });
    expect(await b.prisma.message.count({ where: { org_id: w.targetOrg } })).toBe(0);
    expect(await b.prisma.phone.count({ where: { org_id: w.targetOrg } })).toBe(0);
  }, 120_000);

  it('imports the organization: the report counts every resource and nothing failed', async () => {
    const lines: string[] = [];
    const run = await importCli(b, args(), (l) => lines.push(l));
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/Import [0-9a-f-]{36} completed/);
    expect(run.out).toMatch(/RESOURCE\s+READ\s+CREATED\s+UPDATED\s+SKIPPED\s+FAILED/);
    expect(lines.some((l) => /chats/.test(l))).toBe(true);
    const runs = await client(b.baseUrl, w.targetToken).get('/imports');
    expect(runs.status).toBe(200);
    const done = runs.body.imports.find((i: any) => !i.dry_run);
    w.importId = done.import_id;
    expect(done.status).toBe('completed');
    for (const [resource, c] of Object.entries<any>(done.report)) expect({ resource, failed: c.failed }).toEqual({ resource, failed: 0 });
    expect(done.report.messages).toMatchObject({ read: source.messages, created: source.messages });
    expect(done.report.phones).toMatchObject({ read: 2, created: 2 });
    expect(done.report.media).toMatchObject({ read: source.media.size, created: source.media.size });
  }, 180_000);

  it('every resource reads the same through the public client from both stacks', async () => {
    const ca = publicClientAt(a.baseUrl, source.token);
    const cb = publicClientAt(b.baseUrl, w.targetToken);
    // Phones: the same numbers and names, to reconnect by QR here.
    const phonesA = dataOf(await ca.phone.getAll(), 'phones A') as any[];
    const phonesB = dataOf(await cb.phone.getAll(), 'phones B') as any[];
    expect(phonesB.map((p) => p.phone_name).sort()).toEqual(phonesA.map((p) => p.phone_name).sort());
    for (const p of phonesB) expect(p.wa_state).not.toBe('CONNECTED');
    // Chats with their labels, properties and assignee.
    const chatsA = dataOf(await ca.chat.getChats({ limit: 2000 } as any), 'chats A') as any;
    const chatsB = dataOf(await cb.chat.getChats({ limit: 2000 } as any), 'chats B') as any;
    expect(chatsB.count).toBe(chatsA.count);
    const chatView = (c: any) => ({
      chat_id: c.chat_id,
      chat_name: c.chat_name,
      chat_type: c.chat_type,
      assigned_to: c.assigned_to,
      custom_properties: c.custom_properties,
      labels: Object.keys(c.label_ids).length,
      latest: c.latest_message?.message_id ?? null,
    });
    expect(byKey(chatsB.chats, 'chat_id').map(chatView)).toEqual(
      byKey(chatsA.chats, 'chat_id')
        .map(chatView)
        .map((c) => ({ ...c, custom_properties: expect.anything() })),
    );
    // Every message of every chat, field by field.
    for (const chatId of [...source.chats.slice(0, 5), source.group]) {
      const ma = dataOf(await ca.chat.getChatMessages({ chat_id: chatId, limit: 2000 } as any), `messages A ${chatId}`) as any;
      const mb = dataOf(await cb.chat.getChatMessages({ chat_id: chatId, limit: 2000 } as any), `messages B ${chatId}`) as any;
      expect(mb.count).toBe(ma.count);
      const same = (m: any) => strip(sameWherever(m), ['org_phone_id']);
      expect(byKey(mb.messages, 'message_id').map(same)).toEqual(byKey(ma.messages, 'message_id').map(same));
    }
    // Tickets with their quoted message, notes, FAQs.
    const ticketsA = dataOf(await ca.ticket.getAll({} as any), 'tickets A') as any;
    const ticketsB = dataOf(await cb.ticket.getAll({} as any), 'tickets B') as any;
    const ticketView = (t: any) => strip(t, ['phone_id', 'org_phone', 'chat', 'last_updated_at']);
    expect(byKey(ticketsB.tickets, 'ticket_id').map(ticketView)).toEqual(byKey(ticketsA.tickets, 'ticket_id').map(ticketView));
    const notesA = dataOf(await ca.note.getNotes({} as any), 'notes A') as any;
    const notesB = dataOf(await cb.note.getNotes({} as any), 'notes B') as any;
    expect(notesB.notes.map((n: any) => [n.note_id, n.message ?? n.body])).toEqual(
      notesA.notes.map((n: any) => [n.note_id, n.message ?? n.body]),
    );
    const faqsA = dataOf(await ca.knowledgeBase.getAll({ type: 'faq' } as any), 'faqs A') as any;
    const faqsB = dataOf(await cb.knowledgeBase.getAll({ type: 'faq' } as any), 'faqs B') as any;
    expect(faqsB.data.map((f: any) => [f.question, f.answer])).toEqual(faqsA.data.map((f: any) => [f.question, f.answer]));
    // Webhooks and workflows come over disabled: nothing is delivered twice while both systems run.
    const hooksB = dataOf(await cb.webhook.list({} as any), 'webhooks B') as any[];
    expect(hooksB.map((h) => h.integration_name).sort()).toEqual(['message.created', 'ticket.created']);
    for (const h of hooksB) expect(h.is_subscribed).toBe(false);
    const flows = await client(b.baseUrl, w.targetToken).get('/workflows');
    expect(flows.body.workflows.map((f: any) => [f.name, f.is_active])).toEqual([['Greeting', false]]);
  }, 120_000);

  it('message media comes over: B links its own copy of each file, and serves the same bytes through spec 4.8', async () => {
    const mine = client(b.baseUrl, w.targetToken);
    const bMedia = `http://127.0.0.1:${w.media[1].port}/app/media/message-media/${w.targetOrg}/`;
    const rows = await b.prisma.message.findMany({
      where: { org_id: w.targetOrg, has_media: true },
      select: { message_id: true, media: true },
    });
    expect(rows.length).toBe(source.media.size);
    for (const row of rows.slice(0, 12)) {
      const file = source.media.get(row.message_id);
      const path = (row.media as { path: string }).path;
      expect(path.startsWith(bMedia)).toBe(true);
      const link = await mine.post('/media/migrate-url', { url: path, access: 'private' });
      expect(link.status).toBe(200);
      const served = await fetch(link.body.url);
      expect({ status: served.status, bytes: await served.text() }).toEqual({ status: 200, bytes: file?.bytes });
    }
    // The other organization of B cannot have a link made to these files.
    const theirs = await client(b.baseUrl, w.other.token).post('/media/migrate-url', {
      url: (rows[0].media as { path: string }).path,
      access: 'private',
    });
    expect(theirs.status).toBeGreaterThanOrEqual(400);
  }, 60_000);

  it('the cut-over switches on the webhooks and workflows the source had on, once', async () => {
    const mine = client(b.baseUrl, w.targetToken);
    const first = await mine.post(`/imports/${w.importId}/cutover`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ switched_on: { webhooks: 2, workflows: 1 }, failed: [] });
    expect((await mine.get('/webhooks')).body.map((h: any) => h.is_subscribed)).toEqual([true, true]);
    expect((await mine.get('/workflows')).body.workflows.map((f: any) => f.is_active)).toEqual([true]);
    expect((await mine.post(`/imports/${w.importId}/cutover`)).body.switched_on).toEqual({ webhooks: 0, workflows: 0 });
    // Another organization cannot cut over this one's import.
    expect((await client(b.baseUrl, w.other.token).post(`/imports/${w.importId}/cutover`)).status).toBe(404);
  }, 60_000);

  it('a second run creates nothing, and the other organization of B is untouched', async () => {
    const before = await b.prisma.message.count();
    const run = await importCli(b, [...args(), '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out).report as Record<string, any>;
    for (const [resource, c] of Object.entries(report))
      expect({ resource, created: c.created, failed: c.failed }).toEqual({ resource, created: 0, failed: 0 });
    expect(report.messages?.read ?? 0).toBe(0); // no chat moved: no message page read
    expect(await b.prisma.message.count()).toBe(before);
    const other = client(b.baseUrl, w.other.token);
    const theirs = await other.get(`/chats/${source.chats[0]}/messages`);
    expect(theirs.body.messages.map((m: any) => m.body)).toEqual(["the other organization's message"]);
    expect((await other.get('/phones/all')).body.map((p: any) => p.phone_id)).toEqual([w.other.phone]);
  }, 120_000);

  it('a later run brings the new messages and tickets, and a label change', async () => {
    const api = client(a.baseUrl, source.token);
    const phone = source.phones[0];
    const row = { phone_id: phone.phoneId, org_phone: `${phone.number}@c.us` };
    const fresh = await createMessages(a.prisma, { id: source.orgId }, row, [
      { chatId: source.chats[4], body: 'arrived after the first import', timestamp: new Date() },
      { chatId: source.chats[4], body: 'and another', timestamp: new Date(Date.now() + 1) },
    ]);
    // The chat's newest message moves, as ingestion would move it.
    await a.prisma.$executeRaw`
      UPDATE chats c SET latest_message_id = m.id, latest_message_at = m."timestamp", activity_at = m."timestamp"
      FROM (SELECT id, "timestamp" FROM messages WHERE phone_id = ${phone.phoneId} AND chat_id = ${source.chats[4]} ORDER BY "timestamp" DESC, id DESC LIMIT 1) m
      WHERE c.phone_id = ${phone.phoneId} AND c.chat_id = ${source.chats[4]}`;
    await api.post('/tickets/create', { chat_id: source.chats[4], subject: 'New since' });
    await api.patch('/chats/labels', { chat_ids: [source.chats[5]], labels: 'vip' });
    const run = await importCli(b, [...args(), '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.out).report;
    expect(report.messages.created).toBe(2);
    expect(report.tickets.created).toBe(1);
    const mine = client(b.baseUrl, w.targetToken);
    const got = await mine.get(`/chats/${source.chats[4]}/messages?limit=2`);
    expect(got.body.messages.map((m: any) => m.message_id).sort()).toEqual(fresh.map((m) => m.message_id).sort());
    const chat = await mine.get(`/chats/${source.chats[5]}`);
    expect(Object.keys(chat.body.label_ids).length).toBe(1);
  }, 120_000);

  it('refuses bad sources with a clear error, and bad requests in the envelope', async () => {
    const bad = await importCli(b, ['--org', w.targetOrg, '--from', `${a.baseUrl}/v1`, '--token', 'mapi_not-a-token']);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/SOURCE_UNAUTHORIZED/);
    const html = await importCli(b, ['--org', w.targetOrg, '--from', `${a.baseUrl}/nowhere`, '--token', source.token]);
    expect(html.code).toBe(1);
    expect(html.err).toMatch(/SOURCE_NOT_HOSTED_API|not there/);
    const mine = client(b.baseUrl, w.targetToken);
    const invalid = await mine.post('/imports', { from: 'ftp://example.com', token: '' });
    expectEnvelope(invalid.body, 'VALIDATION_ERROR', 422);
    const missing = await mine.get('/imports/00000000-0000-4000-8000-000000000000');
    expectEnvelope(missing.body, 'NOT_FOUND_ERROR', 404);
    // Another organization's run is not found, its id map neither.
    const theirs = client(b.baseUrl, w.other.token);
    expect((await theirs.get(`/imports/${w.importId}`)).status).toBe(404);
    expect((await theirs.get(`/imports/${w.importId}/id-map`)).status).toBe(404);
    // B allows 127.0.0.1/32 only: another loopback address is refused before any connection.
    const blocked = await mine.post('/imports', { from: 'http://127.0.0.2:9/v1', token: 'x' });
    expect(blocked.status).toBe(202);
    const failed = await until(
      () => mine.get(`/imports/${blocked.body.import_id}`),
      (r) => r.body.status === 'failed',
      20_000,
      'blocked source fails',
    );
    expect(failed.body.error).toMatchObject({ code: 'SOURCE_ADDRESS_BLOCKED' });
  }, 120_000);

  it('an importer SIGKILLed mid-history resumes on the next run: nothing missing, nothing twice', async () => {
    const split = await createOrg(b.prisma);
    const splitArgs = ['--org', split.id, '--from', `${a.baseUrl}/v1`, '--token', source.token];
    const mine = client(b.baseUrl, (await createToken(b.prisma, split.id)).token);
    // Paced to 4 requests a second so that the history takes seconds; the CLI follows, the importer is killed.
    const first = importCli(b, [...splitArgs, '--rate', '4']);
    const running = await until(
      () => mine.get('/imports'),
      (r) => (r.body.imports?.[0]?.progress?.chats_done ?? 0) >= 3,
      60_000,
      'history under way',
    );
    const importId = running.body.imports[0].import_id;
    await w.importer.kill();
    const cut = await first;
    expect(cut.code).toBe(1);
    const partial = await b.prisma.message.count({ where: { org_id: split.id } });
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(source.messages);
    w.importer = await b.startService('importer');
    const resumed = await importCli(b, [...splitArgs, '--json']);
    expect(resumed.code).toBe(0);
    const run = JSON.parse(resumed.out);
    expect(run.import_id).toBe(importId);
    expect(await b.prisma.message.count({ where: { org_id: split.id } })).toBe(source.messages + 2);
    expect(run.report.messages.failed).toBe(0);
    // Ids the first target organization already holds were mapped, and the map says so.
    const map = await mine.get(`/imports/${importId}/id-map`);
    expect(map.status).toBe(200);
    expect(map.body.entries.map((e: any) => e.resource)).toEqual(expect.arrayContaining(['tickets', 'phones']));
  }, 180_000);

  it("the console's Import page: an owner runs a dry run and watches it end; an admin has neither page nor route", async () => {
    const org = await createOrg(b.prisma);
    const password = 'correct horse battery';
    const made = spawnSync(
      process.execPath,
      [
        join(__dirname, '..', '..', 'apps', 'admin-cli', 'dist', 'main.js'),
        'members:create-owner',
        '--org',
        org.id,
        '--email',
        'owner@import.example.com',
        '--password',
        password,
      ],
      {
        env: { ...process.env, DATABASE_URL: b.env.DATABASE_URL },
        encoding: 'utf8',
      },
    );
    expect(made.status).toBe(0);
    const port = await freePort();
    await b.startService('console', { PORT: String(port), HOST: '127.0.0.1', CONSOLE_GATEWAY_URL: b.baseUrl });
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
      const consoleUrl = `http://127.0.0.1:${port}/console`;
      await page.goto(`${consoleUrl}/`);
      await page.getByLabel('Email').fill('owner@import.example.com');
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Import' }).click();
      await page.getByRole('heading', { name: 'Import', exact: true }).waitFor({ timeout: 10_000 });
      await page.getByLabel('Source API base URL').fill(`${a.baseUrl}/v1`);
      await page.getByLabel(/Source API token/).fill(source.token);
      await page.getByLabel(/Dry run/).check();
      await page.getByRole('button', { name: 'Start import' }).click();
      const card = page.getByRole('region', { name: /^Import / }).first();
      await card.getByText('completed').waitFor({ timeout: 60_000 });
      await card.getByRole('cell', { name: 'messages', exact: true }).waitFor();
      expect(await checkPage(page, 'imports')).toEqual([]);
      // An admin of the same organization: no Import in the navigation, the page refused, the route 403.
      const owner = sessionOf(
        b.baseUrl,
        await anonymous(b.baseUrl, 'POST', '/auth/sign-in', { email: 'owner@import.example.com', password }),
      );
      const admin = await joinByInvitation(
        b.baseUrl,
        { post: (path, body) => owner.call('POST', path, body) },
        { emails: ['admin@import.example.com'], role: 'admin' },
        password,
      );
      expect((await admin.call('POST', '/imports', { from: `${a.baseUrl}/v1`, token: source.token })).status).toBe(403);
      expect((await admin.call('GET', '/imports')).status).toBe(403);
      const adminPage = await (await browser.newContext()).newPage();
      await adminPage.goto(`${consoleUrl}/`);
      await adminPage.getByLabel('Email').fill('admin@import.example.com');
      await adminPage.getByLabel('Password').fill(password);
      await adminPage.getByRole('button', { name: 'Sign in' }).click();
      await adminPage.getByRole('heading', { name: 'Phones' }).waitFor({ timeout: 10_000 });
      expect(await adminPage.getByRole('link', { name: 'Import' }).count()).toBe(0);
      await adminPage.goto(`${consoleUrl}/imports`);
      await adminPage.getByText("This page is for the organization's owners.").waitFor({ timeout: 10_000 });
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('a source that answers 429 and 503 at random is read to the end', async () => {
    const flaky = await flakyProxy(`${a.baseUrl}`, 4);
    try {
      const third = await createOrg(b.prisma);
      const run = await importCli(b, ['--org', third.id, '--from', `${flaky.url}/v1`, '--token', source.token, '--json']);
      // the importer's own words when it did not finish
      expect({ code: run.code, said: run.code === 0 ? '' : `${run.out.slice(-1500)}\n${run.err.slice(-1500)}` }).toEqual({
        code: 0,
        said: '',
      });
      expect(flaky.refused()).toBeGreaterThan(5);
      expect(await b.prisma.message.count({ where: { org_id: third.id } })).toBe(source.messages + 2);
    } finally {
      await flaky.close();
    }
  }, 180_000);
});

/**
 * A proxy to `target` that answers every `every`-th request 429 (Retry-After 0) or 503, in turn, instead of
 * passing it on; a request refused is passed on when it comes again. (Without that, a few importer workers
 * retrying in step could keep one of them on every `every`-th slot until its attempts ran out: a pattern
 * of this proxy, not of a source.)
 */
async function flakyProxy(target: string, every: number) {
  const { createServer } = await import('node:http');
  let refused = 0;
  let seen = 0;
  const refusedLast = new Set<string>();
  const server = createServer(async (req, res) => {
    const key = `${req.method} ${req.url}`;
    if (refusedLast.has(key)) refusedLast.delete(key);
    else if (++seen % every === 0) {
      refusedLast.add(key);
      const limited = refused++ % 2 === 0;
      res.writeHead(limited ? 429 : 503, { 'content-type': 'application/json', ...(limited ? { 'retry-after': '0' } : {}) });
      res.end(
        JSON.stringify({
          code: limited ? 'RATE_LIMIT_ERROR' : 'SERVICE_UNAVAILABLE_ERROR',
          message: 'try again',
          status: limited ? 429 : 503,
        }),
      );
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const upstream = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers: {
        authorization: String(req.headers.authorization ?? ''),
        'content-type': String(req.headers['content-type'] ?? 'application/json'),
      },
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks),
    });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, refused: () => refused, close: () => new Promise<void>((r) => server.close(() => r())) };
}
