import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@mapi/db';
import { createOrg, createToken, freePort, randomDigits, randomSuffix, testEnv, withDatabase } from '@mapi/testing';
import { Client } from 'pg';
import { composeApp, loadCompose, type ComposeService } from '../deploy/support/compose';
import { CLI_APPS } from '../deploy/support/repo';
import { callApi, client, until } from './support/http';
import { dataOf, publicClientAt } from './support/public-client-at';
import { connectedSandboxPhone } from './support/queue-phone';
import { checkoutImage, podman, podmanUsable, ROOT, run } from './support/podman';

/**
 * The container image built with the project's own Dockerfile and run (issue 37): podman with a
 * local base (scripts/build-base-image.sh, cached), the runtime tree assembled on the host
 * (scripts/build-image.sh), then its hygiene, then the stack from it — the migration job and every
 * app of docker-compose.yml with the command, settings, user and restrictions compose gives it, on the
 * host network against this machine's Postgres, Redis and NATS — and a request through the public API.
 * Figures (size, build and ready times) go to test-artifacts/image.json.
 * Skipped, saying why, only where podman cannot be installed or run (no apt-get, no root or sudo).
 */
const usable = podmanUsable();
if (!usable.ok) process.stdout.write(`image tests skipped: podman cannot run here: ${usable.reason}\n`);
const describeWithPodman = usable.ok ? describe : describe.skip;

const { startReceiver } = require('../../bench/webhooks/receiver.js');

const IMAGE = checkoutImage();
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const figures: Record<string, unknown> = {};

function saveFigures(): void {
  mkdirSync(join(ROOT, 'test-artifacts'), { recursive: true });
  writeFileSync(join(ROOT, 'test-artifacts', 'image.json'), `${JSON.stringify(figures, null, 2)}\n`);
}

/** A shell script run in a fresh container of the image (no network), its stdout. */
const inImage = (script: string, options: string[] = []) =>
  podman(['run', '--rm', '--network', 'none', ...options, IMAGE, 'sh', '-c', script]);

describeWithPodman('the container image (issue 37)', () => {
  let inspect: any;

  beforeAll(async () => {
    const started = Date.now();
    // The apps' dist/ as the run built them (scripts/test.sh builds before Jest).
    const built = await run('bash', ['scripts/build-image.sh'], { env: { MAPI_IMAGE: IMAGE, MAPI_SKIP_BUILD: '1' }, timeoutMs: 540_000 });
    if (built.code !== 0) throw new Error(`scripts/build-image.sh failed (${built.code}):\n${built.stderr.slice(-4000)}`);
    figures.buildSeconds = Math.round((Date.now() - started) / 100) / 10;
    inspect = JSON.parse(await podman(['image', 'inspect', IMAGE]))[0];
    figures.image = IMAGE;
    figures.base = inspect.Labels['org.opencontainers.image.base.name'];
    figures.sizeMB = Math.round(inspect.Size / 1e6);
    saveFigures();
  }, 600_000);

  it('runs as uid 1000 (node), not root', async () => {
    expect(inspect.Config.User).toBe('1000:1000');
    expect(await inImage('id -u; id -g; id -un')).toBe('1000\n1000\nnode');
  });

  it('writes nowhere but /data and /tmp: a read-only root file system works', async () => {
    // Without --read-only the tree is still not the user's: files belong to root.
    expect(
      await inImage(
        'touch /data/ok && rm /data/ok && touch /tmp/ok && for p in /app /app/apps /app/node_modules /etc /usr/local/bin; do touch "$p/x" 2>/dev/null && echo "wrote $p"; done; true',
      ),
    ).toBe('');
    // As Kubernetes and compose run it: a read-only root, /tmp a tmpfs, /data a volume.
    const volume = `mapi-e2e-data-${randomSuffix(3)}`;
    try {
      await podman(['volume', 'create', volume]);
      const out = await inImage(
        'touch /data/ok && touch /tmp/ok && node -e "require(\'fs\').writeFileSync(\'/tmp/n\',\'1\')" && (touch /app/x 2>/dev/null && echo "wrote /app"; touch /x 2>/dev/null && echo "wrote /"; echo done)',
        ['--read-only', '--tmpfs', '/tmp', '-v', `${volume}:/data`],
      );
      expect(out).toBe('done');
    } finally {
      await run('podman', ['volume', 'rm', '-f', volume]);
    }
  });

  it('has no compilers or build tools', async () => {
    const found = await inImage('for t in gcc cc c++ g++ clang make ld as cpp python3 npm npx; do command -v "$t"; done; true');
    expect(found).toBe('');
  });

  it('has no dev dependencies (every one still there is a runtime dependency of a production package) and an SBOM of what it has', async () => {
    const listing = JSON.parse(
      await inImage(
        `node -e '
        const fs = require("fs"), path = require("path");
        const present = new Set(), wanted = new Set();
        const walk = (dir) => {
          for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
            if (name.startsWith(".")) continue;
            if (name.startsWith("@")) { for (const n of fs.readdirSync(path.join(dir, name))) visit(path.join(dir, name, n), name + "/" + n); }
            else visit(path.join(dir, name), name);
          }
        };
        const visit = (p, name) => {
          if (fs.lstatSync(p).isSymbolicLink()) return;
          present.add(name);
          const pj = JSON.parse(fs.readFileSync(path.join(p, "package.json"), "utf8"));
          for (const d of Object.keys({ ...pj.dependencies, ...pj.optionalDependencies, ...pj.peerDependencies })) wanted.add(d);
          walk(path.join(p, "node_modules"));
        };
        walk("node_modules");
        console.log(JSON.stringify({ present: [...present], wanted: [...wanted] }));'`,
      ),
    ) as { present: string[]; wanted: string[] };
    const dev = Object.keys(pkg.devDependencies);
    const present = new Set(listing.present);
    const wanted = new Set([...listing.wanted, ...Object.keys(pkg.dependencies)]);
    figures.packages = present.size;
    // Present dev dependencies that nothing of the runtime asks for: none.
    expect(dev.filter((name) => present.has(name) && !wanted.has(name))).toEqual([]);
    // The build and test tools, whoever declares them.
    const tools = ['typescript', 'prisma', 'eslint', 'nx', 'jest', '@swc/core', '@swc/cli', 'vite', 'playwright-core', 'testcontainers'];
    expect(tools.filter((name) => present.has(name))).toEqual([]);
    // Every production dependency is there.
    expect(Object.keys(pkg.dependencies).filter((name) => !present.has(name))).toEqual([]);
    // The SBOM (CycloneDX) lists exactly the packages there.
    const bom = JSON.parse(await inImage('cat /app/sbom.cdx.json'));
    expect(bom).toMatchObject({
      bomFormat: 'CycloneDX',
      specVersion: '1.5',
      metadata: { component: { name: pkg.name, version: pkg.version } },
    });
    expect([...new Set(bom.components.map((c: { name: string }) => c.name))].sort()).toEqual([...present].sort());
  });

  it('holds no sources, tests or TypeScript: only package.json and dist/ of each project', async () => {
    const stray = await inImage(
      "find /app \\( -name '*.ts' -o -name '*.tsx' -o -name '*.mts' -o -name '*.cts' -o -name '*.spec.js' -o -name '*.int-spec.js' -o -name '*.e2e-spec.js' \\) -print | head -20; " +
        'for d in /app/apps/* /app/libs/*; do for e in "$d"/*; do case "${e##*/}" in package.json|dist) ;; *) echo "$e";; esac; done; done',
    );
    expect(stray).toBe('');
    // Every app of apps/ is in it, built.
    const apps = (await inImage('ls /app/apps')).split('\n');
    const built = await inImage('for a in /app/apps/*; do [ -f "$a/dist/main.js" ] && echo "${a##*/}"; done');
    expect(built.split('\n').sort()).toEqual(apps.sort());
  });

  it('sets NODE_ENV=production', async () => {
    expect(inspect.Config.Env).toContain('NODE_ENV=production');
    expect(await inImage('node -p process.env.NODE_ENV')).toBe('production');
  });

  it('is labelled with its version and revision (OCI), and its size is recorded', async () => {
    for (const where of [inspect.Labels, inspect.Annotations]) {
      expect(where['org.opencontainers.image.version']).toBe(pkg.version);
      expect(where['org.opencontainers.image.revision']).toMatch(/^([0-9a-f]{40}(-dirty)?|unknown)$/);
      expect(Date.parse(where['org.opencontainers.image.created'])).toBeGreaterThan(Date.now() - 3_600_000);
    }
    // The base's own labels, one each (podman import reads one label per --change).
    expect(inspect.Labels['mapi.node.integrity']).toMatch(/^sha512-[A-Za-z0-9+/]+=*$/);
    // Issue 37's aim (docs/services/deployment.md has today's size and what makes it up).
    expect(inspect.Size).toBeLessThanOrEqual(250e6);
  });

  it('has no high or critical npm audit finding in its production tree, or says it could not ask', async () => {
    // scripts/audit-image.js: 0 clean, 1 findings, 3 the advisories endpoint refused (405 on this machine's registry).
    const audit = await run('node', ['scripts/audit-image.js'], { timeoutMs: 150_000 });
    figures.audit = audit.stdout.trim().split('\n').pop();
    saveFigures();
    if (audit.code !== 0 && audit.code !== 3) throw new Error(`scripts/audit-image.js (${audit.code}):\n${audit.stdout}${audit.stderr}`);
    expect(audit.stdout).toMatch(/^audit: /m);
  });

  describe('the stack from the image, as docker-compose.yml starts it', () => {
    const suffix = randomSuffix(3);
    const names: string[] = [];
    const volume = `mapi-e2e-files-${suffix}`;
    const database = `mapi_e2e_image_${suffix}`;
    const url = withDatabase(testEnv.adminDatabaseUrl(), database);
    const compose = loadCompose();
    const apps = Object.entries(compose.services)
      .map(([service, s]) => ({ service, app: composeApp(s), s }))
      // Long-running apps only (the seed runs the admin CLI once).
      .filter((a): a is { service: string; app: string; s: ComposeService } => a.app !== undefined && !CLI_APPS.includes(a.app));
    const ports: Record<string, Record<string, number>> = {};
    const gatewayService = apps.find((a) => a.app === 'api-gateway')?.service ?? 'api-gateway';
    let prisma: PrismaClient | undefined;
    const db = (): PrismaClient => {
      if (!prisma) throw new Error('the stack did not start');
      return prisma;
    };
    let token = '';
    let sentChat = ''; // the chat of the smoke run's send
    let mediaLink = ''; // a signed link to a file of the volume
    let receiver: any; // bench/webhooks/receiver.js: records every request it answers
    /** Waits until a service answers its compose health check (mapped to this host), failing with its log. */
    const waitHealthy = async (service: string, s: ComposeService, timeoutMs = 120_000) => {
      const test = (s.healthcheck?.test ?? []).join(' ');
      const port = Number(/127\.0\.0\.1:(\d+)\/health\/ready/.exec(test)?.[1] ?? 8081);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const ok = await fetch(`${urlOf(service, port)}/health/ready`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (ok) return;
        if (Date.now() > deadline) {
          const logs = await run('podman', ['logs', '--tail', '40', `mapi-e2e-${suffix}-${service}`]);
          throw new Error(`${service} not ready after ${timeoutMs / 1000} s:\n${logs.stdout}\n${logs.stderr}`);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    const admin = async (sql: string) => {
      const c = new Client({ connectionString: testEnv.adminDatabaseUrl() });
      await c.connect();
      try {
        await c.query(sql);
      } finally {
        await c.end();
      }
    };
    /** podman run options for what compose sets on a service (read_only, tmpfs, cap_drop, security_opt, volumes). */
    const restrictions = (s: ComposeService): string[] => {
      const out: string[] = [];
      if (s.read_only) out.push('--read-only');
      for (const t of s.tmpfs ?? []) out.push('--tmpfs', t);
      for (const c of s.cap_drop ?? []) out.push('--cap-drop', c);
      for (const o of s.security_opt ?? []) out.push('--security-opt', o);
      for (const v of s.volumes ?? []) out.push('-v', v.replace(/^files:/, `${volume}:`));
      return out;
    };
    const urlOf = (service: string, containerPort: number) => `http://127.0.0.1:${ports[service][containerPort]}`;

    beforeAll(async () => {
      receiver = await startReceiver();
      await admin(`CREATE DATABASE "${database}"`);
      await podman(['volume', 'create', volume]);
      // The migration job, from the image, as compose's `migrate` service runs it.
      const migrate = compose.services.migrate;
      const migrated = await run('podman', [
        'run',
        '--rm',
        '--network',
        'host',
        '-e',
        `DATABASE_URL=${url}`,
        IMAGE,
        ...(migrate.command ?? []),
      ]);
      if (migrated.code !== 0) throw new Error(`migrations failed:\n${migrated.stdout}\n${migrated.stderr}`);
      // Ports of this host for the container ports compose uses (8080 HTTP, 8081 health, 8090 media).
      for (const { service } of apps) ports[service] = { 8080: await freePort(), 8081: await freePort(), 8090: await freePort() };
      const gateway = gatewayService;
      const started = Date.now();
      for (const { service, s } of apps) {
        const env: Record<string, string> = {};
        for (const [k, v] of Object.entries(s.environment ?? {})) if (v !== null && v !== undefined) env[k] = String(v);
        Object.assign(env, {
          DATABASE_URL: url,
          REDIS_URL: testEnv.redisUrl(),
          NATS_URL: testEnv.natsUrl(),
          NAMESPACE: `img${suffix}`,
          HOST: '127.0.0.1',
          HEALTH_HOST: '127.0.0.1',
          MEDIA_HTTP_HOST: '127.0.0.1',
          PORT: String(ports[service][8080]),
          HEALTH_PORT: String(ports[service][8081]),
          MEDIA_HTTP_PORT: String(ports[service][8090]),
          CONSOLE_GATEWAY_URL: urlOf(gateway, 8080),
          TRUST_PROXY_ADDRESSES: '127.0.0.1',
          // The smoke run's webhook receiver listens on this host's loopback (compose allows none).
          WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
          LOG_LEVEL: 'warn',
        });
        const name = `mapi-e2e-${suffix}-${service}`;
        names.push(name);
        const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
        await podman(['run', '-d', '--name', name, '--network', 'host', ...restrictions(s), ...envArgs, IMAGE, ...(s.command ?? [])]);
      }
      // Ready as compose's health check asks (its port mapped to this host's).
      const readyAfter: Record<string, number> = {};
      await Promise.all(
        apps.map(async ({ service, s }) => {
          await waitHealthy(service, s);
          readyAfter[service] = Math.round((Date.now() - started) / 100) / 10;
        }),
      );
      figures.readySeconds = readyAfter;
      saveFigures();
      prisma = createPrismaClient({ url, poolSize: 2 });
    }, 300_000);

    afterAll(async () => {
      if (names.length > 0) await run('podman', ['rm', '-f', '-t', '5', ...names], { timeoutMs: 120_000 });
      await run('podman', ['volume', 'rm', '-f', volume]);
      await prisma?.$disconnect();
      await receiver?.close();
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    }, 180_000);

    it('runs every app of docker-compose.yml, each as the image user, ready', async () => {
      expect(apps.map((a) => a.app)).toEqual(expect.arrayContaining(['api-gateway', 'chats']));
      for (const name of names) {
        const state = JSON.parse(await podman(['inspect', name]))[0];
        expect({ name, running: state.State.Running, user: state.Config.User }).toEqual({ name, running: true, user: '1000:1000' });
      }
    });

    it('answers the public API: GET /v1/chats with a token', async () => {
      const org = await createOrg(db());
      token = (await createToken(db(), org.id)).token;
      const gateway = gatewayService;
      const res = await callApi(urlOf(gateway, 8080), 'GET', '/chats', token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ count: 0, chats: [] });
      const denied = await callApi(urlOf(gateway, 8080), 'GET', '/chats', 'not-a-token');
      expect(denied.status).toBe(401);
    });

    it('sends through a sandbox phone, delivers its webhook, reads it back with the public client, purges a scheduled broadcast', async () => {
      const base = urlOf(gatewayService, 8080);
      const api = client(base, token);
      const hook = await api.post('/webhooks', { hookUrl: `${receiver.url}/image`, integrationName: ['message.created'] });
      expect(hook.status).toBe(201);
      // The phone connects (phones), the send is queued and sent (queue), stored (chats).
      const { phoneId } = await connectedSandboxPhone(api);
      const contact = randomDigits();
      const sent = await api.post('/message/send', { chat_id: contact, message: 'sent from the image' }, { 'x-phone': phoneId });
      expect(sent.status).toBe(200);
      await until(
        () => api.get(`/chats/${contact}@c.us/messages`, { 'x-phone': phoneId }),
        (r) => r.body?.messages?.some((m: any) => m.sent_message_id === sent.body.queue_id),
        30_000,
        'the sent message',
      );
      // The webhooks dispatcher delivered the message's event to the receiver on this host.
      await until(
        async () => receiver.requests.filter((r: { path: string }) => r.path === '/image').length,
        (n) => n >= 1,
        30_000,
        'message.created delivered',
      );
      // Spec 4.1 read, through the public TypeScript client.
      const chats = dataOf(await publicClientAt(base, token).chat.getChats({ limit: 10 } as never), 'chat.getChats') as any;
      expect(chats.chats.map((c: any) => c.chat_id)).toContain(`${contact}@c.us`);
      sentChat = `${contact}@c.us`;
      // Spec 4.5: a broadcast scheduled for later, purged before any of it is sent.
      const later = new Date(Date.now() + 3_600_000).toISOString();
      const broadcast = await api.post(
        '/message/broadcast',
        { chat_ids: [randomDigits(), randomDigits(), randomDigits()], message: 'never sent', scheduled_at: later },
        { 'x-phone': phoneId },
      );
      expect(broadcast.status).toBe(200);
      expect(await api.post('/message/queues/purge', {}, { 'x-phone': phoneId })).toMatchObject({
        status: 200,
        body: { purged: true, mode: 'all' },
      });
      const status = await api.get(`/queue/broadcast?broadcast_id=${broadcast.body.broadcast_id}`, { 'x-phone': phoneId });
      expect(status.body).toMatchObject({ total: 3, pending: 0, completed: 0, purged: 3 });
    });

    it('creates a knowledge-base FAQ, embedded by the worker, and finds it by search', async () => {
      const base = urlOf(gatewayService, 8080);
      const created = await callApi(base, 'POST', '/knowledge-base/faq/create', token, {
        question: 'Do you ship abroad?',
        answer: 'We ship to every country in the European Union.',
        is_active: true,
      });
      expect(created.status).toBe(200);
      const found = await until(
        () => callApi(base, 'POST', '/knowledge-base/search', token, { query: 'shipping to countries abroad', k: 3 }),
        (r) => r.body?.data?.[0]?.context_id === created.body.context_id,
        30_000,
        'the FAQ found by search',
      );
      expect(found.body.data[0].question).toBe('Do you ship abroad?');
    });

    it('serves a file of the shared files volume through media with a link POST /media/migrate-url signed', async () => {
      const media = apps.find((a) => a.app === 'media');
      if (!media) throw new Error('no media service in docker-compose.yml');
      const org = (await createOrg(db())).id;
      // Written as the image's user into the volume compose shares between media, knowledge-base, … .
      await podman([
        'run',
        '--rm',
        '--network',
        'none',
        '-v',
        `${volume}:/data`,
        IMAGE,
        'sh',
        '-c',
        `mkdir -p /data/files/message-media/${org} && printf 'from the volume' > /data/files/message-media/${org}/note.txt`,
      ]);
      // Spec 4.8: the gateway asks media for a signed link to the file (its host is compose's
      // MEDIA_BASE_URL; the test reaches the media container on its published port).
      const orgToken = (await createToken(db(), org)).token;
      const migrated = await callApi(urlOf(gatewayService, 8080), 'POST', '/media/migrate-url', orgToken, {
        url: `/app/media/message-media/${org}/note.txt`,
        access: 'private',
      });
      expect(migrated.status).toBe(200);
      const signed = new URL(migrated.body.url);
      expect(signed.pathname).toBe(`/app/media/message-media/${org}/note.txt`);
      mediaLink = `${urlOf(media.service, 8090)}${signed.pathname}${signed.search}`;
      const res = await fetch(mediaLink);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('from the volume');
      // Without the link's token the file is not served.
      expect((await fetch(`${urlOf(media.service, 8090)}${signed.pathname}`)).status).toBe(401);
    });

    it('loses nothing when containers are killed and started again (restart: unless-stopped)', async () => {
      // chats (the sent chat is in Postgres) and media (the file is on the volume), killed hard.
      const restarted = apps.filter((a) => a.app === 'chats' || a.app === 'media');
      expect(restarted).toHaveLength(2);
      for (const a of restarted) await podman(['kill', '-s', 'KILL', `mapi-e2e-${suffix}-${a.service}`]);
      for (const a of restarted) await podman(['start', `mapi-e2e-${suffix}-${a.service}`]);
      await Promise.all(restarted.map((a) => waitHealthy(a.service, a.s, 60_000)));
      const base = urlOf(gatewayService, 8080);
      const chats = await until(
        () => callApi(base, 'GET', '/chats', token),
        (r) => r.status === 200,
        15_000,
        'GET /chats after the restart',
      );
      expect(chats.body.chats.map((c: { chat_id: string }) => c.chat_id)).toContain(sentChat);
      const file = await fetch(mediaLink);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe('from the volume');
    });

    it('serves the console page', async () => {
      const web = apps.find((a) => a.app === 'console');
      if (!web) return; // no console in docker-compose.yml
      const res = await fetch(`${urlOf(web.service, 8080)}/console/`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
    });
  });
});
