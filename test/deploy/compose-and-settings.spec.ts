import { healthPortSetting } from './support/app-checks';
import { composeApp, durationSeconds, loadCompose } from './support/compose';
import { byKind, get, overlayNames, renderOverlay } from './support/render';
import { readRepoFile, runnableApps } from './support/repo';
import { settingsInCode, settingsInOperationsDoc } from './support/settings';
import { appShutdownDeadlineSeconds } from './support/shutdown';
import { containersOf, envNames, podSpec, settingsConfigMap } from './support/workloads';

const APPS = runnableApps();
const { services } = loadCompose();
// Services that run an app as a process (the seed runs the admin CLI: not one of them).
const appServices = () => Object.entries(services).filter(([, s]) => APPS.includes(composeApp(s) ?? ''));

/**
 * Settings that may stay unset in an overlay, and why: unset is their meaning (no trace export) or
 * they only matter with another setting. They are still referenced (optional ConfigMap keys).
 */
const MAY_STAY_UNSET: Record<string, string> = {
  OTEL_EXPORTER_OTLP_ENDPOINT: 'unset means no trace export',
  EMBEDDING_HTTP_BASE_URL: 'needed only with EMBEDDING_PROVIDER=openai',
  EMBEDDING_HTTP_API_KEY: 'needed only with EMBEDDING_PROVIDER=openai, and then only by some providers',
  AI_AGENT_API_KEY: 'needed only by model servers that take a key (hosted ones); local servers take none',
};

describe('docker-compose.yml and deploy/ describe the same stack', () => {
  it("compose runs every app of apps/ (and nothing else) under the app's own name", () => {
    expect(
      appServices()
        .map(([name]) => name)
        .sort(),
    ).toEqual(APPS);
    for (const [name, service] of appServices()) expect(composeApp(service)).toBe(name);
  });

  it("compose's development keys are keys the apps accept (32 bytes, base64)", () => {
    // A key of another length stops the app at start (its config check), which only the image test saw.
    for (const key of ['BAILEYS_AUTH_KEY', 'CLOUD_API_SECRETS_KEY']) {
      const value = services.phones.environment?.[key] ?? '';
      expect({ key, bytes: Buffer.from(value, 'base64').length, base64: /^[A-Za-z0-9+/]+=*$/.test(value) }).toEqual({
        key,
        bytes: 32,
        base64: true,
      });
    }
  });

  it('compose has Postgres with pgvector, Redis, NATS with JetStream, each with a health check', () => {
    expect(services.postgres.image).toMatch(/pgvector/);
    expect(services.redis.image).toMatch(/^redis:/);
    expect(services.nats.image).toMatch(/^nats:/);
    expect(services.nats.command).toContain('-js');
    for (const name of ['postgres', 'redis', 'nats']) expect(services[name].healthcheck?.test.length).toBeGreaterThan(1);
  });

  it('compose migrates once, after Postgres is healthy and before any app or the seed starts', () => {
    expect(services.migrate.command).toEqual(['node', 'libs/db/dist/migrate-cli.js']);
    expect(services.migrate.depends_on?.postgres.condition).toBe('service_healthy');
    for (const [name, service] of [...appServices(), ['seed', services.seed] as const]) {
      expect([name, service.depends_on?.migrate?.condition]).toEqual([name, 'service_completed_successfully']);
    }
    expect(services.seed.command).toEqual(['node', 'apps/admin-cli/dist/main.js', 'seed:demo']);
  });

  it("compose checks each app's readiness on its configured port, and gives it time to shut down", () => {
    const deadline = appShutdownDeadlineSeconds();
    for (const [name, service] of appServices()) {
      const port = service.environment?.[healthPortSetting(name)];
      expect([name, service.healthcheck?.test.join(' ')]).toEqual([name, expect.stringContaining(`http://127.0.0.1:${port}/health/ready`)]);
      expect([name, durationSeconds(service.stop_grace_period) > deadline]).toEqual([name, true]);
    }
  });

  it('compose and the dev manifests give each app the same settings', () => {
    const objects = renderOverlay('dev');
    for (const [name, service] of appServices()) {
      const [container] = podSpec(get(objects, 'Deployment', name)).containers;
      const inCompose = Object.keys(service.environment ?? {}).sort();
      expect({ app: name, settings: inCompose }).toEqual({ app: name, settings: envNames(objects, container) });
    }
  });

  it('compose and the manifests agree on the values of ports and the namespace', () => {
    const configMap = settingsConfigMap(renderOverlay('dev')).data ?? {};
    for (const [name, service] of appServices()) {
      for (const key of ['PORT', 'HEALTH_PORT', 'MEDIA_HTTP_PORT', 'NAMESPACE', 'NODE_ENV']) {
        expect([name, key, service.environment?.[key]]).toEqual([name, key, configMap[key]]);
      }
    }
  });
});

describe('every setting the code reads is configured and documented', () => {
  const inCode = settingsInCode();
  const known = [...inCode.keys()].sort();

  it('finds the settings in the code', () => {
    expect(known).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'NATS_URL', 'REDIS_URL', 'HEALTH_PORT', 'PORT', 'OTEL_EXPORTER_OTLP_ENDPOINT']),
    );
  });

  it.each(overlayNames())('overlay %s references every setting (ConfigMap or Secret) and no unknown one', (overlay) => {
    const objects = renderOverlay(overlay);
    const workloads = [...byKind(objects, 'Deployment'), ...byKind(objects, 'Job')];
    const referenced = new Set([
      ...Object.keys(settingsConfigMap(objects).data ?? {}),
      ...workloads.flatMap(containersOf).flatMap((c) => envNames(objects, c)),
    ]);
    expect(known.filter((name) => !referenced.has(name))).toEqual([]);
    expect([...referenced].filter((name) => !inCode.has(name))).toEqual([]);
    // Set (not only referenced) unless unset has a stated meaning.
    const configMap = settingsConfigMap(objects).data ?? {};
    const fromSecrets = new Set(
      workloads
        .flatMap(containersOf)
        .flatMap((c) =>
          (c.env ?? []).filter((e) => e.valueFrom?.secretKeyRef || e.valueFrom?.fieldRef || e.value !== undefined).map((e) => e.name),
        ),
    );
    expect(known.filter((name) => !(name in configMap) && !fromSecrets.has(name) && !(name in MAY_STAY_UNSET))).toEqual([]);
  });

  it('docs/operations.md has a row for every setting, and no row for a setting that does not exist', () => {
    const documented = settingsInOperationsDoc();
    expect(known.filter((name) => !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => !inCode.has(name))).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readRepoFile('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages[stages.length - 1];

  it('builds in one stage and runs from a small Node LTS image in another', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const version = Number(/^ARG NODE_VERSION=(\d+)$/m.exec(dockerfile)?.[1]);
    expect(version % 2).toBe(0); // even majors are the LTS lines
    expect(version).toBeGreaterThanOrEqual(22);
    // The base is a build argument whose default is the official slim image of that version (a
    // machine without a registry passes a local one: scripts/build-base-image.sh).
    expect(dockerfile).toMatch(/^ARG BASE_IMAGE=node:\$\{NODE_VERSION\}-[a-z]+-slim$/m);
    expect(runtime).toMatch(/^\$\{BASE_IMAGE\} AS runtime/);
  });

  it('keeps only production dependencies and runs as a non-root user', () => {
    // The build stage assembles the runtime tree with scripts/image-tree.js (production dependencies
    // only; test/e2e/image.e2e-spec.ts checks the image built from it).
    expect(dockerfile).toMatch(/node scripts\/image-tree\.js /);
    const user = /^USER (\S+)$/m.exec(runtime)?.[1];
    expect(user).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user);
    expect(runtime).not.toMatch(/npm (install|ci)/);
  });

  it('leaves dependencies, build output and secrets out of the build context', () => {
    const ignored = readRepoFile('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    expect(ignored).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.git', '.env']));
  });
});
