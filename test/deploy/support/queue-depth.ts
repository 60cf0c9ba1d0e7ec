import { readRepoFile } from './repo';
import { byKind, find, type K8sObject } from './render';
import { containersOf, selects, settingsConfigMap } from './workloads';

const GAUGE_SOURCE = 'libs/queue-feature/src/metrics/queue-depth-gauge.ts';

/**
 * What the queue app serves as its depth gauge, read from the code (QUEUE_DEPTH_PATH and
 * QUEUE_DEPTH_FIELDS), so a renamed path or field fails the manifest checks. The gauge's
 * integration test checks that the app serves exactly these on its health server.
 */
export function queueDepthGauge(): { path: string; fields: string[] } {
  const source = readRepoFile(GAUGE_SOURCE);
  const path = /QUEUE_DEPTH_PATH\s*=\s*'([^']+)'/.exec(source)?.[1];
  const fields = /QUEUE_DEPTH_FIELDS\s*=\s*\[([^\]]*)\]/.exec(source)?.[1];
  if (!path || !fields) throw new Error(`${GAUGE_SOURCE}: QUEUE_DEPTH_PATH or QUEUE_DEPTH_FIELDS not found; update test/deploy/support/queue-depth.ts`);
  return { path, fields: [...fields.matchAll(/'([^']+)'/g)].map((m) => m[1]) };
}

/** The namespace a KEDA-scaled workload is rendered into (the overlay's). */
const namespaceOf = (objects: K8sObject[]) => objects.find((o) => o.kind === 'Namespace')?.metadata.name;

/**
 * Problems of the send queue's KEDA scaling, [] when none: a ScaledObject targets the queue
 * Deployment (and no HPA does), its metrics-api trigger reads the gauge the app serves (path,
 * a field of the answer, JSON) through a Service of this overlay's namespace that selects the
 * queue pods, on the port that is the pods' HEALTH_PORT, and a NetworkPolicy lets the KEDA
 * operator's namespace (and nothing else) reach that port.
 */
export function queueScalingProblems(objects: K8sObject[], gauge = queueDepthGauge()): string[] {
  const problems: string[] = [];
  const scaled = find(objects, 'ScaledObject', 'queue');
  const deployment = find(objects, 'Deployment', 'queue');
  if (!scaled || !deployment) return [`queue: ${scaled ? '' : 'no ScaledObject '}${deployment ? '' : 'no Deployment'}`.trim()];
  if (scaled.spec.scaleTargetRef?.name !== 'queue' || (scaled.spec.scaleTargetRef.kind ?? 'Deployment') !== 'Deployment') problems.push('queue: the ScaledObject does not target the queue Deployment');
  if (find(objects, 'HorizontalPodAutoscaler', 'queue')) problems.push('queue: the plain HPA is still there beside the ScaledObject');

  const trigger = (scaled.spec.triggers ?? []).find((t: { type: string }) => t.type === 'metrics-api');
  if (!trigger) return [...problems, 'queue: no metrics-api trigger'];
  const { url, valueLocation, format = 'json', targetValue } = trigger.metadata ?? {};
  if (format !== 'json') problems.push(`queue: metrics-api format ${format}, the gauge answers JSON`);
  if (!gauge.fields.includes(valueLocation)) problems.push(`queue: valueLocation ${valueLocation} is not a field of the gauge (${gauge.fields.join(', ')})`);
  if (!(Number(targetValue) > 0)) problems.push(`queue: targetValue ${targetValue} is not a positive number`);

  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return [...problems, `queue: metrics-api url ${url} is not a URL`];
  }
  if (target.pathname !== gauge.path) problems.push(`queue: the trigger reads ${target.pathname}, the app serves ${gauge.path}`);
  const [serviceName, serviceNamespace, ...rest] = target.hostname.split('.');
  const overlayNamespace = namespaceOf(objects);
  if (rest.join('.') !== 'svc.cluster.local' || serviceNamespace !== overlayNamespace) {
    problems.push(`queue: the trigger's host ${target.hostname} is not <service>.${overlayNamespace}.svc.cluster.local`);
  }
  const service = find(objects, 'Service', serviceName);
  if (!service) return [...problems, `queue: no Service ${serviceName}`];
  const podLabels = deployment.spec.template.metadata.labels;
  if (!selects({ matchLabels: service.spec.selector }, podLabels)) problems.push(`queue: Service ${serviceName} does not select the queue pods`);
  const servicePort = (service.spec.ports ?? []).find((p: { port: number }) => p.port === Number(target.port || 80));
  const container = containersOf(deployment).find((c) => c.command?.join(' ') === 'node apps/queue/dist/main.js');
  const containerPort = container?.ports?.find((p) => p.name === servicePort?.targetPort || p.containerPort === servicePort?.targetPort)?.containerPort;
  const healthPort = Number(container?.env?.find((e) => e.name === 'HEALTH_PORT')?.value ?? settingsConfigMap(objects).data?.HEALTH_PORT);
  if (!servicePort) problems.push(`queue: Service ${serviceName} has no port ${target.port}`);
  else if (containerPort !== healthPort) problems.push(`queue: Service ${serviceName} port ${servicePort.port} leads to container port ${containerPort}, not HEALTH_PORT=${healthPort}`);

  const reaching = byKind(objects, 'NetworkPolicy').filter((p) => selects(p.spec.podSelector, podLabels) && p.spec.ingress?.length);
  const rules = reaching.flatMap((p) => p.spec.ingress);
  const fromKedaOnly = rules.every(ruleFromKedaOnly);
  const ports = rules.flatMap((r: any) => (r.ports ?? []).map((p: { port: number }) => p.port));
  if (!rules.length || !fromKedaOnly || ports.length !== 1 || ports[0] !== healthPort) {
    problems.push(`queue: expected one NetworkPolicy rule letting only namespace keda reach port ${healthPort}; found ${JSON.stringify(rules)}`);
  }
  return problems;
}

/** An ingress rule that admits only the KEDA operator's namespace (no pod selector). */
export const ruleFromKedaOnly = (rule: any): boolean =>
  Boolean(rule.from?.length) && rule.from.every((f: any) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'keda' && !f.podSelector);
