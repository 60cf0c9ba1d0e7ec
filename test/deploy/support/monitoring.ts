import { METRICS, prometheusSeries, type MetricDefinition } from '@mapi/contracts';
import { byKind, find, type K8sObject } from './render';
import { containersOf, selects, settingsConfigMap } from './workloads';

/**
 * Checks of deploy/components/monitoring and of the KEDA triggers that read its metrics, against
 * the code: the metric names come from the catalogue every instrument is created from
 * (libs/contracts/src/metrics/metric-catalogue.ts; test/boundaries/metric-catalogue.spec.ts holds
 * the code to it), so a renamed metric fails here. Each returns its problems, [] when none.
 */
export type Catalogue = Record<string, MetricDefinition>;

/** Series name (as a scrape shows it) → the metric it belongs to. */
export function exportedSeries(catalogue: Catalogue = METRICS): Map<string, MetricDefinition> {
  return new Map(Object.values(catalogue).flatMap((m) => prometheusSeries(m).map((s) => [s, m] as const)));
}

const NOT_METRICS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'and',
  'or',
  'unless',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression selects: identifiers outside strings, label matchers,
 * ranges and grouping lists that are neither a function or aggregation (followed by `(`), a
 * keyword, nor part of a number or duration.
 */
export function promqlMetricNames(expr: string): string[] {
  const s = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\$\{?\w+\}?/g, ' ');
  const names = new Set<string>();
  for (const m of s.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const before = s[(m.index ?? 0) - 1] ?? ' ';
    if (/[0-9.]/.test(before)) continue; // 1e3, 5m
    if (
      s
        .slice((m.index ?? 0) + m[0].length)
        .trimStart()
        .startsWith('(')
    )
      continue;
    if (NOT_METRICS.has(m[0].toLowerCase())) continue;
    names.add(m[0]);
  }
  return [...names];
}

/** For each selection of a metric in the expression, the value its matchers require for `label` ('' when none). */
function requiredLabel(expr: string, label: string): string[] {
  return promqlMetricNames(expr).flatMap((name) =>
    [...expr.matchAll(new RegExp(`(?<![\\w:])${name}(?![\\w:])\\s*(\\{[^}]*\\})?`, 'g'))].map(
      (m) => new RegExp(`[{,]\\s*${label}\\s*=\\s*"([^"]*)"`).exec(m[1] ?? '')?.[1] ?? '',
    ),
  );
}

const namespaceOf = (objects: K8sObject[]) => objects.find((o) => o.kind === 'Namespace')?.metadata.name;

/** The pods' labels and health port (the container port HEALTH_PORT names) of an app's Deployment. */
function appPods(objects: K8sObject[], app: string) {
  const deployment = find(objects, 'Deployment', app);
  if (!deployment) return undefined;
  const container = containersOf(deployment).find((c) => c.command?.join(' ') === `node apps/${app}/dist/main.js`);
  const healthPort = Number(container?.env?.find((e) => e.name === 'HEALTH_PORT')?.value ?? settingsConfigMap(objects).data?.HEALTH_PORT);
  return { labels: deployment.spec.template.metadata.labels as Record<string, string>, container, healthPort };
}

/**
 * Every app is scraped: some ServiceMonitor of the namespace selects a Service that selects the
 * app's pods, and the monitor's endpoint names a port of that Service whose target is the
 * container port HEALTH_PORT, at /metrics.
 */
export function scrapeProblems(objects: K8sObject[], apps: string[]): string[] {
  const monitors = byKind(objects, 'ServiceMonitor');
  if (!monitors.length) return ['no ServiceMonitor'];
  const problems: string[] = [];
  for (const app of apps) {
    const pods = appPods(objects, app);
    if (!pods) {
      problems.push(`${app}: no Deployment`);
      continue;
    }
    const scraped = monitors.some((monitor) =>
      byKind(objects, 'Service')
        .filter(
          (service) =>
            selects(monitor.spec.selector, service.metadata.labels) && selects({ matchLabels: service.spec.selector }, pods.labels),
        )
        .some((service) =>
          (monitor.spec.endpoints ?? []).some((endpoint: { port?: string; path?: string }) => {
            const port = (service.spec.ports ?? []).find((p: { name?: string }) => p.name === endpoint.port);
            const target = pods.container?.ports?.find((p) => p.name === port?.targetPort || p.containerPort === port?.targetPort);
            return target?.containerPort === pods.healthPort && (endpoint.path ?? '/metrics') === '/metrics';
          }),
        ),
    );
    if (!scraped)
      problems.push(`${app}: no ServiceMonitor selects a Service that selects its pods on HEALTH_PORT=${pods.healthPort} at /metrics`);
  }
  return problems;
}

/** An ingress rule that admits only the Prometheus namespace (no pod selector). */
export const ruleFromPrometheusOnly = (rule: any, namespace = 'monitoring'): boolean =>
  Boolean(rule.from?.length) &&
  rule.from.every((f: any) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === namespace && !f.podSelector);

/** Prometheus's namespace may reach each app's health port, and that port only. */
export function prometheusPolicyProblems(objects: K8sObject[], apps: string[]): string[] {
  const policies = byKind(objects, 'NetworkPolicy').filter((p) => p.spec.ingress?.some((r: unknown) => ruleFromPrometheusOnly(r)));
  if (!policies.length) return ['no NetworkPolicy admits the Prometheus namespace'];
  const problems: string[] = [];
  for (const policy of policies) {
    const rules = policy.spec.ingress;
    const ports = [...new Set(rules.flatMap((r: any) => (r.ports ?? [{ port: 'every port' }]).map((p: { port: unknown }) => p.port)))];
    if (!rules.every((r: unknown) => ruleFromPrometheusOnly(r)))
      problems.push(`NetworkPolicy ${policy.metadata.name}: a rule admits more than the Prometheus namespace`);
    for (const app of apps) {
      const pods = appPods(objects, app);
      if (pods && selects(policy.spec.podSelector, pods.labels) && (ports.length !== 1 || ports[0] !== pods.healthPort)) {
        problems.push(
          `NetworkPolicy ${policy.metadata.name}: lets Prometheus reach ${app} on ${ports.join(', ')}, not only HEALTH_PORT=${pods.healthPort}`,
        );
      }
    }
  }
  for (const app of apps) {
    const pods = appPods(objects, app);
    if (pods && !policies.some((p) => selects(p.spec.podSelector, pods.labels))) problems.push(`${app}: Prometheus may not reach its pods`);
  }
  return problems;
}

/** The dashboard of the rendered ConfigMap with Grafana's sidecar label, parsed. */
export function renderedDashboard(objects: K8sObject[]): { panels: any[]; templating?: any } | undefined {
  const map = byKind(objects, 'ConfigMap').find((c) => c.metadata.labels?.grafana_dashboard === '1');
  const file = map && Object.entries(map.data ?? {}).find(([key]) => key.endsWith('.json'));
  return file ? JSON.parse(file[1]) : undefined;
}

/** Every query of a dashboard: its panels' (rows' nested panels too) and its query variables'. */
export function dashboardQueries(dashboard: { panels: any[]; templating?: any }): { where: string; expr: string }[] {
  const panels = dashboard.panels.flatMap((p) => [p, ...(p.panels ?? [])]);
  return [
    ...panels.flatMap((p) => (p.targets ?? []).map((t: { expr: string }) => ({ where: `panel "${p.title}"`, expr: t.expr }))),
    ...(dashboard.templating?.list ?? [])
      .filter((v: any) => v.type === 'query')
      .map((v: any) => ({
        where: `variable ${v.name}`,
        expr: String(v.query?.query ?? v.query).replace(/^label_values\((.*),\s*\w+\)$/, '$1'),
      })),
  ];
}

/** Every series a dashboard names is exported by the apps, and every exported metric has a panel. */
export function dashboardProblems(dashboard: { panels: any[]; templating?: any } | undefined, catalogue: Catalogue = METRICS): string[] {
  if (!dashboard) return ['no dashboard ConfigMap labelled grafana_dashboard=1'];
  const series = exportedSeries(catalogue);
  const problems: string[] = [];
  const shown = new Set<string>();
  for (const { where, expr } of dashboardQueries(dashboard)) {
    const names = promqlMetricNames(expr);
    if (!names.length) problems.push(`${where}: no metric in ${expr}`);
    for (const name of names) {
      const metric = series.get(name);
      if (metric) shown.add(metric.name);
      else problems.push(`${where}: ${name} is not a metric the apps export`);
    }
    if (!requiredLabel(expr, 'namespace').every((v) => v === '$namespace') && !where.startsWith('variable'))
      problems.push(`${where}: a selector does not filter on namespace="$namespace"`);
  }
  for (const metric of Object.values(catalogue)) if (!shown.has(metric.name)) problems.push(`${metric.name}: no panel shows it`);
  return problems;
}

/**
 * Each ScaledObject scales on the apps' own metrics through KEDA's prometheus scaler: the query
 * names only series the target app exports, filters on the overlay's namespace in every selector,
 * has a positive threshold and a server URL; no trigger reads Redis or an app directly any more,
 * and Prometheus scrapes the target app (scrapeProblems).
 */
export function kedaPrometheusProblems(objects: K8sObject[], catalogue: Catalogue = METRICS): string[] {
  const problems: string[] = [];
  const series = exportedSeries(catalogue);
  const namespace = namespaceOf(objects);
  for (const scaled of byKind(objects, 'ScaledObject')) {
    const app = scaled.spec.scaleTargetRef?.name;
    const triggers: { type: string; metadata: Record<string, string> }[] = scaled.spec.triggers ?? [];
    for (const t of triggers.filter((x) => !['prometheus', 'cpu', 'memory'].includes(x.type)))
      problems.push(`${app}: a ${t.type} trigger, not the exported metrics`);
    const prometheus = triggers.filter((t) => t.type === 'prometheus');
    if (!prometheus.length) problems.push(`${app}: no prometheus trigger`);
    for (const { metadata } of prometheus) {
      const names = promqlMetricNames(metadata.query ?? '');
      if (!names.length) problems.push(`${app}: the query names no metric`);
      for (const name of names) {
        const metric = series.get(name);
        if (!metric) problems.push(`${app}: the query reads ${name}, which the apps do not export`);
        else if (!metric.apps.includes(app))
          problems.push(`${app}: the query reads ${name}, which ${app} does not export (${metric.apps.join(', ')} do)`);
      }
      const namespaces = requiredLabel(metadata.query ?? '', 'namespace');
      if (!namespaces.length || namespaces.some((n) => n !== namespace))
        problems.push(`${app}: the query's selectors must require namespace="${namespace}" (found ${JSON.stringify(namespaces)})`);
      if (!(Number(metadata.threshold) > 0)) problems.push(`${app}: threshold ${metadata.threshold} is not a positive number`);
      if (!/^https?:\/\/[^/]+/.test(metadata.serverAddress ?? ''))
        problems.push(`${app}: serverAddress ${metadata.serverAddress} is not a URL`);
    }
    problems.push(...scrapeProblems(objects, [app]).map((p) => `${app}: scaled on metrics nobody scrapes (${p})`));
  }
  return problems;
}
