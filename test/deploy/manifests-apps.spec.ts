import { appProblems, securityProblems } from './support/app-checks';
import { byKind, find, first, get, overlayNames, renderOverlay, type K8sObject } from './support/render';
import { CLI_APPS, allApps, runnableApps } from './support/repo';
import { appShutdownDeadlineSeconds } from './support/shutdown';
import { ruleFromPrometheusOnly } from './support/monitoring';
import { containersOf, podSpec, selects } from './support/workloads';

// Read from apps/ at test time: a new app folder without its Deployment fails here.
const APPS = runnableApps();
// Workloads that are not ours, each with a spec of its own (manifests-pgbouncer.spec.ts).
const THIRD_PARTY = ['pgbouncer'];
const ours = (o: K8sObject) =>
  !THIRD_PARTY.includes(o.metadata.name) && !THIRD_PARTY.includes(o.spec?.podSelector?.matchLabels?.['app.kubernetes.io/name']);
const timing = { appDeadlineSeconds: appShutdownDeadlineSeconds(), marginSeconds: 5 };
const overlays = overlayNames();

describe('deploy/: every app of apps/ is deployed and scaled', () => {
  it('knows the apps (every folder of apps/ but the CLIs)', () => {
    expect(APPS).toEqual(expect.arrayContaining(['api-gateway', 'chats']));
    expect(APPS).not.toContain('admin-cli');
    for (const cli of CLI_APPS) expect(allApps()).toContain(cli);
  });

  describe.each(overlays)('overlay %s', (overlay) => {
    const objects = () => renderOverlay(overlay);

    it.each(APPS)('%s: Deployment with probes on its health port, resources, one autoscaler, a PDB, safe shutdown', (app) => {
      expect(appProblems(objects(), app, timing)).toEqual([]);
    });

    it('has no Deployment for an app that does not exist', () => {
      const stale = byKind(objects(), 'Deployment')
        .filter(ours)
        .map((d) => d.metadata.name)
        .filter((name) => !APPS.includes(name));
      expect(stale).toEqual([]);
    });

    it('runs the migration Job with the migration runner, as non-root', () => {
      const job = get(objects(), 'Job', 'mapi-migrate');
      expect(containersOf(job).map((c) => c.command?.join(' '))).toEqual(['node libs/db/dist/migrate-cli.js']);
      expect(securityProblems('mapi-migrate', podSpec(job), containersOf(job))).toEqual([]);
    });

    it('uses one image, with a tag, in every workload', () => {
      const workloads = [...byKind(objects(), 'Deployment'), ...byKind(objects(), 'Job')].filter(ours);
      const images = new Set(workloads.flatMap((w) => containersOf(w).map((c) => (c as { image?: string }).image)));
      expect(images.size).toBe(1);
      expect([...images][0]).toMatch(/:[^:/]+$/); // a tag, not the floating default
    });

    it('lets outside traffic reach only the gateway, media and the console (and Prometheus only the health ports)', () => {
      // A policy whose every rule admits only Prometheus's namespace is not outside traffic;
      // manifests-monitoring.spec.ts checks it (the health port only).
      const prometheusOnly = (p: K8sObject) =>
        p.spec.ingress?.length && p.spec.ingress.every((rule: unknown) => ruleFromPrometheusOnly(rule));
      const policies = byKind(objects(), 'NetworkPolicy')
        .filter((p) => !prometheusOnly(p))
        .filter(ours);
      expect(byKind(objects(), 'NetworkPolicy').filter(prometheusOnly)).toHaveLength(byKind(objects(), 'ServiceMonitor').length ? 1 : 0);
      const denyAll = policies.filter(
        (p) => Object.keys(p.spec.podSelector ?? {}).length === 0 && p.spec.policyTypes?.includes('Ingress') && !p.spec.ingress?.length,
      );
      expect(denyAll).toHaveLength(1);
      const allowed = policies.filter((p) => p.spec.ingress?.length).map((p) => p.spec.podSelector.matchLabels['app.kubernetes.io/name']);
      expect(allowed.sort()).toEqual(['api-gateway', 'console', 'media']);
      for (const policy of policies.filter((p) => p.spec.ingress?.length)) {
        const app = policy.spec.podSelector.matchLabels['app.kubernetes.io/name'];
        const port = containersOf(get(objects(), 'Deployment', app))[0].ports?.[0].containerPort;
        expect(policy.spec.ingress.flatMap((rule: { ports: { port: number }[] }) => rule.ports.map((p) => p.port))).toEqual([port]);
      }
    });

    it('routes /v1 to the gateway, /app/media to media, /console and the realtime socket to the console, through Services that select them', () => {
      const ingresses = byKind(objects(), 'Ingress');
      expect(ingresses).toHaveLength(1);
      const paths = ingresses[0].spec.rules.flatMap((r: { http: { paths: unknown[] } }) => r.http.paths) as {
        path: string;
        backend: { service: { name: string; port: { name: string } } };
      }[];
      expect(paths.map((p) => [p.path, p.backend.service.name]).sort()).toEqual([
        ['/app/media', 'media'],
        ['/console', 'console'],
        ['/v1', 'api-gateway'],
        // The session cookie's Path is /v1: the console forwards the socket to the gateway's /socket.io.
        ['/v1/socket.io', 'console'],
      ]);
      for (const { backend } of paths) {
        const service = get(objects(), 'Service', backend.service.name);
        const deployment = get(objects(), 'Deployment', backend.service.name);
        expect(selects({ matchLabels: service.spec.selector }, deployment.spec.template.metadata.labels)).toBe(true);
        const servicePort = service.spec.ports.find((p: { name: string }) => p.name === backend.service.port.name);
        expect(containersOf(deployment)[0].ports?.map((p) => p.name)).toContain(servicePort.targetPort);
      }
    });

    it('references Postgres, Redis and NATS as external services', () => {
      for (const name of ['postgres', 'redis', 'nats']) {
        expect(find(objects(), 'Service', name)?.spec.type).toBe('ExternalName');
      }
    });

    it('points every secret reference at mapi-secrets, and every ConfigMap reference at the rendered settings', () => {
      const rendered = (kind: string) => new Set(byKind(objects(), kind).map((o) => o.metadata.name));
      const configMaps = rendered('ConfigMap');
      const secrets = new Set(byKind(objects(), 'Secret').map((o) => o.metadata.name));
      const workloads: K8sObject[] = [...byKind(objects(), 'Deployment'), ...byKind(objects(), 'Job')];
      for (const container of workloads.flatMap(containersOf)) {
        for (const e of container.env ?? []) {
          const secret = e.valueFrom?.secretKeyRef?.name;
          // Generated (dev): the rendered, hashed Secret. Created outside the repository (prod): mapi-secrets.
          if (secret)
            expect(secrets.size ? secrets.has(secret) && secret.startsWith('mapi-secrets') : secret === 'mapi-secrets').toBe(true);
          const map = e.valueFrom?.configMapKeyRef?.name;
          if (map) expect(configMaps.has(map)).toBe(true);
        }
        for (const from of container.envFrom ?? []) if (from.configMapRef) expect(configMaps.has(from.configMapRef.name)).toBe(true);
      }
    });
  });

  it('dev generates the Secret with every key the workloads need, and seeds the demo data after migrating', () => {
    const objects = renderOverlay('dev');
    const secret = first(objects, 'Secret', (s) => s.metadata.name.startsWith('mapi-secrets'));
    const required = [...byKind(objects, 'Deployment'), ...byKind(objects, 'Job')]
      .flatMap(containersOf)
      .flatMap((c) => c.env ?? [])
      .filter((e) => e.valueFrom?.secretKeyRef && !e.valueFrom.secretKeyRef.optional)
      .map((e) => e.valueFrom.secretKeyRef.key);
    expect(Object.keys(secret.data ?? {}).sort()).toEqual([...new Set(required)].sort());
    const seed = get(objects, 'Job', 'mapi-seed-demo');
    expect(containersOf(seed).map((c) => c.command?.join(' '))).toEqual([
      'node libs/db/dist/migrate-cli.js',
      'node apps/admin-cli/dist/main.js seed:demo',
    ]);
  });

  it('prod admits outside traffic only from the ingress controller, and the gateway also from the console (which forwards the socket)', () => {
    const from = (name: string) =>
      get(renderOverlay('prod'), 'NetworkPolicy', name).spec.ingress.flatMap((rule: { from?: unknown[] }) => rule.from ?? []);
    const ingressNginx = { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } };
    expect(from('api-gateway-ingress')).toEqual([ingressNginx, { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'console' } } }]);
    for (const name of ['media-ingress', 'console-ingress']) expect(from(name)).toEqual([ingressNginx]);
  });

  it('prod has no seed Job and no generated Secret (it is created outside the repository)', () => {
    const objects = renderOverlay('prod');
    expect(find(objects, 'Job', 'mapi-seed-demo')).toBeUndefined();
    expect(byKind(objects, 'Secret')).toEqual([]);
  });

  describe('the checks can fail', () => {
    const dev = () => renderOverlay('dev');
    const gateway = (objects: K8sObject[]) => get(objects, 'Deployment', 'api-gateway');

    it('reports a missing Deployment, a wrong probe, a probe on the wrong port, and missing limits', () => {
      expect(
        appProblems(
          dev().filter((o) => !(o.kind === 'Deployment' && o.metadata.name === 'chats')),
          'chats',
          timing,
        ),
      ).toEqual(['chats: no Deployment']);
      const objects = dev();
      const container = podSpec(gateway(objects)).containers[0];
      container.readinessProbe.httpGet.path = '/health/live';
      container.livenessProbe.httpGet.port = 9999;
      delete container.resources.limits.memory;
      expect(appProblems(objects, 'api-gateway', timing)).toEqual([
        'api-gateway: readinessProbe is not an HTTP GET of /health/ready',
        'api-gateway: livenessProbe port 9999 is not PORT=8080',
        'api-gateway: memory request and limit must both be set',
      ]);
    });

    it('reports a missing autoscaler or PDB, a fixed replica count, root, and a grace period shorter than the shutdown', () => {
      const objects = dev().filter(
        (o) => !(o.metadata.name === 'api-gateway' && ['HorizontalPodAutoscaler', 'PodDisruptionBudget'].includes(o.kind)),
      );
      const deployment = gateway(objects);
      deployment.spec.replicas = 3;
      podSpec(deployment).securityContext.runAsNonRoot = false;
      podSpec(deployment).terminationGracePeriodSeconds = 30;
      expect(appProblems(objects, 'api-gateway', timing)).toEqual([
        'api-gateway: spec.replicas is set, but the autoscaler owns the replica count',
        'api-gateway: 0 HPAs and 0 ScaledObjects target it; exactly one autoscaler expected',
        'api-gateway: 0 PodDisruptionBudgets select its pods; one expected',
        'api-gateway: pod securityContext.runAsNonRoot is not true',
        `api-gateway: terminationGracePeriodSeconds 30 < preStop 5 s + app deadline ${timing.appDeadlineSeconds} s + margin 5 s`,
      ]);
    });
  });
});
