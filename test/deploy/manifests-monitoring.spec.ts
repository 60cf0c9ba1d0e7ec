import { METRICS } from '@mapi/contracts';
import {
  dashboardProblems,
  dashboardQueries,
  exportedSeries,
  kedaPrometheusProblems,
  prometheusPolicyProblems,
  promqlMetricNames,
  renderedDashboard,
  scrapeProblems,
} from './support/monitoring';
import { byKind, find, get, renderOverlay, type K8sObject } from './support/render';
import { runnableApps } from './support/repo';

const APPS = runnableApps();
const prod = () => renderOverlay('prod');
const trigger = (objects: K8sObject[], app: string) =>
  get(objects, 'ScaledObject', app).spec.triggers.find((t: { type: string }) => t.type === 'prometheus');
/** The catalogue as if the code had renamed one metric. */
const renamed = (key: keyof typeof METRICS, name: string) => ({ ...METRICS, [key]: { ...METRICS[key], name } });

// Issue 20 item 2: deploy/components/monitoring (ServiceMonitor, metrics Services, NetworkPolicy,
// Grafana dashboard) and the KEDA ScaledObjects reading the exported metrics through Prometheus,
// all checked against the code's metric catalogue and the apps' HEALTH_PORT.
describe('deploy/: monitoring and metric-driven scaling', () => {
  it('reads metric names out of PromQL (not functions, labels, ranges, numbers or variables)', () => {
    expect(
      promqlMetricNames(
        'histogram_quantile(0.99, sum by (le, http_route) (rate(http_server_request_duration_bucket{namespace="$ns",x=~"a b"}[$__rate_interval])))',
      ),
    ).toEqual(['http_server_request_duration_bucket']);
    expect(promqlMetricNames('sum(rate(a_total[5m])) / ignoring(x) sum(b) > 1e3 offset 5m')).toEqual(['a_total', 'b']);
    expect(exportedSeries().get('mapi_outbox_events_published_total')?.name).toBe('mapi.outbox.events.published');
    expect(exportedSeries().get('mapi_queue_phones_waiting')?.apps).toEqual(['queue']);
  });

  it("prod scrapes every app on its health port: a ServiceMonitor selects a Service that selects the app's pods on HEALTH_PORT", () => {
    expect(scrapeProblems(prod(), APPS)).toEqual([]);
    expect(byKind(prod(), 'ServiceMonitor').map((m) => m.metadata.namespace)).toEqual(['mapi']);
  });

  it("prod lets the Prometheus namespace reach every app's health port and nothing else", () => {
    expect(prometheusPolicyProblems(prod(), APPS)).toEqual([]);
  });

  it('prod scales the send queue and the embedding worker on the metrics they export (KEDA prometheus scaler), not beside a plain HPA', () => {
    const objects = prod();
    expect(kedaPrometheusProblems(objects)).toEqual([]);
    expect(
      byKind(objects, 'ScaledObject')
        .map((s) => s.spec.scaleTargetRef.name)
        .sort(),
    ).toEqual(['embedding-worker', 'queue']);
    for (const app of ['embedding-worker', 'queue']) expect(find(objects, 'HorizontalPodAutoscaler', app)).toBeUndefined();
    expect(promqlMetricNames(trigger(objects, 'queue').metadata.query)).toEqual(['mapi_queue_phones_waiting']);
    expect(promqlMetricNames(trigger(objects, 'embedding-worker').metadata.query)).toEqual(['mapi_embedding_jobs']);
    expect(find(objects, 'Service', 'queue-metrics')?.spec.clusterIP).toBe('None'); // the monitoring component's, not KEDA's old one
  });

  it('prod ships the Grafana dashboard: every query names metrics the apps export, every exported metric has a panel', () => {
    const objects = prod();
    const map = byKind(objects, 'ConfigMap').find((c) => c.metadata.labels?.grafana_dashboard === '1');
    expect(map?.metadata.name).toBe('mapi-grafana-dashboard'); // no hash suffix: the sidecar would load stale copies
    expect(dashboardProblems(renderedDashboard(objects))).toEqual([]);
    expect(dashboardQueries(renderedDashboard(objects)!).length).toBeGreaterThan(Object.keys(METRICS).length);
  });

  it('dev has neither component: no ServiceMonitor, no ScaledObject, the plain HPAs stay', () => {
    const dev = renderOverlay('dev');
    expect(byKind(dev, 'ServiceMonitor')).toEqual([]);
    expect(byKind(dev, 'ScaledObject')).toEqual([]);
    for (const app of ['embedding-worker', 'queue']) expect(find(dev, 'HorizontalPodAutoscaler', app)).toBeDefined();
  });

  describe('the checks can fail', () => {
    it("reports a KEDA query on a metric nobody exports, on another app's metric, on another namespace, and a trigger reading Redis again", () => {
      const withQuery = (app: string, change: (m: Record<string, string>) => void) => {
        const objects = prod();
        change(trigger(objects, app).metadata);
        return kedaPrometheusProblems(objects);
      };
      expect(withQuery('queue', (m) => (m.query = m.query.replace('mapi_queue_phones_waiting', 'mapi_queue_phones_busy')))).toEqual([
        'queue: the query reads mapi_queue_phones_busy, which the apps do not export',
      ]);
      expect(withQuery('queue', (m) => (m.query = 'max(mapi_outbox_backlog{namespace="mapi"})'))).toEqual([
        'queue: the query reads mapi_outbox_backlog, which queue does not export (automation, chats, groups, inbox, phones do)',
      ]);
      expect(withQuery('embedding-worker', (m) => (m.query = m.query.replace('namespace="mapi"', 'namespace="mapi-dev"')))).toEqual([
        'embedding-worker: the query\'s selectors must require namespace="mapi" (found ["mapi-dev"])',
      ]);
      expect(withQuery('queue', (m) => (m.threshold = '0'))).toEqual(['queue: threshold 0 is not a positive number']);
      const redis = prod();
      get(redis, 'ScaledObject', 'embedding-worker').spec.triggers.push({
        type: 'redis',
        metadata: { listName: 'mapi:bull:kb-embeddings:wait' },
      });
      expect(kedaPrometheusProblems(redis)).toEqual(['embedding-worker: a redis trigger, not the exported metrics']);
      // The metric renamed in the code (the catalogue) no longer matches the manifests.
      expect(kedaPrometheusProblems(prod(), renamed('queuePhonesWaiting', 'mapi.queue.phones.due'))).toEqual([
        'queue: the query reads mapi_queue_phones_waiting, which the apps do not export',
      ]);
      const unscraped = prod().filter((o) => o.kind !== 'ServiceMonitor');
      expect(kedaPrometheusProblems(unscraped)).toEqual([
        'embedding-worker: scaled on metrics nobody scrapes (no ServiceMonitor)',
        'queue: scaled on metrics nobody scrapes (no ServiceMonitor)',
      ]);
    });

    it('reports an app whose metrics Service misses its pods or its health port, or a monitor on the wrong port', () => {
      const objects = prod();
      get(objects, 'Service', 'api-gateway-metrics').spec.ports[0].targetPort = 'http';
      get(objects, 'Service', 'queue-metrics').spec.selector = { 'app.kubernetes.io/name': 'queue-x' };
      expect(scrapeProblems(objects, APPS)).toEqual([
        'api-gateway: no ServiceMonitor selects a Service that selects its pods on HEALTH_PORT=8081 at /metrics',
        'queue: no ServiceMonitor selects a Service that selects its pods on HEALTH_PORT=8081 at /metrics',
      ]);
      const wrongPort = prod();
      get(wrongPort, 'ServiceMonitor', 'mapi').spec.endpoints[0].port = 'http';
      expect(scrapeProblems(wrongPort, APPS)).toHaveLength(APPS.length);
      const unlabelled = prod();
      delete get(unlabelled, 'Service', 'chats-metrics').metadata.labels!['app.kubernetes.io/component'];
      expect(scrapeProblems(unlabelled, APPS)).toEqual([
        'chats: no ServiceMonitor selects a Service that selects its pods on HEALTH_PORT=8081 at /metrics',
      ]);
    });

    it('reports a Prometheus policy that opens another port or admits more than Prometheus', () => {
      const morePorts = prod();
      get(morePorts, 'NetworkPolicy', 'metrics-from-prometheus').spec.ingress[0].ports.push({ protocol: 'TCP', port: 8080 });
      expect(prometheusPolicyProblems(morePorts, ['api-gateway'])).toEqual([
        'NetworkPolicy metrics-from-prometheus: lets Prometheus reach api-gateway on 8081, 8080, not only HEALTH_PORT=8081',
      ]);
      const wider = prod();
      get(wider, 'NetworkPolicy', 'metrics-from-prometheus').spec.ingress.push({ from: [{ podSelector: {} }], ports: [{ port: 8081 }] });
      expect(prometheusPolicyProblems(wider, ['chats'])).toEqual([
        'NetworkPolicy metrics-from-prometheus: a rule admits more than the Prometheus namespace',
      ]);
      expect(
        prometheusPolicyProblems(
          prod().filter((o) => o.kind !== 'NetworkPolicy' || o.metadata.name !== 'metrics-from-prometheus'),
          APPS,
        ),
      ).toEqual(['no NetworkPolicy admits the Prometheus namespace']);
    });

    it('reports a dashboard query on a metric nobody exports, without the namespace filter, and an exported metric without a panel', () => {
      const dashboard = () => renderedDashboard(prod())!;
      const panels = (d: { panels: any[] }) => d.panels.filter((p) => p.targets);
      const typo = dashboard();
      panels(typo)[0].targets[0].expr = panels(typo)[0].targets[0].expr.replace(
        'http_server_request_duration_count',
        'http_server_requests_count',
      );
      expect(dashboardProblems(typo)).toEqual([
        `panel "${panels(typo)[0].title}": http_server_requests_count is not a metric the apps export`,
      ]);
      const open = dashboard();
      const realtime = panels(open).find((p) => p.targets[0].expr.includes('mapi_realtime_connections'));
      realtime.targets[0].expr = 'sum(mapi_realtime_connections)';
      expect(dashboardProblems(open)).toEqual([`panel "${realtime.title}": a selector does not filter on namespace="$namespace"`]);
      const missing = dashboard();
      missing.panels = missing.panels.filter(
        (p) => !p.targets?.some((t: { expr: string }) => t.expr.includes('mapi_realtime_connections')),
      );
      expect(dashboardProblems(missing)).toEqual(['mapi.realtime.connections: no panel shows it']);
      expect(dashboardProblems(dashboard(), renamed('ingestLag', 'mapi.ingest.delay'))).toEqual([
        expect.stringMatching(/mapi_ingest_lag_bucket is not a metric the apps export$/),
        expect.stringMatching(/mapi_ingest_lag_bucket is not a metric the apps export$/),
        'mapi.ingest.delay: no panel shows it',
      ]);
      expect(dashboardProblems(undefined)).toEqual(['no dashboard ConfigMap labelled grafana_dashboard=1']);
    });
  });
});
