import { byKind, find, type K8sObject } from './render';
import { containersOf, podSpec, probePort, quantity, selects, settingsConfigMap, type Container } from './workloads';

/** The setting that holds the port of an app's health endpoints: its HTTP port, or HEALTH_PORT. */
export const HEALTH_PORT_SETTING: Record<string, string> = { 'api-gateway': 'PORT', media: 'MEDIA_HTTP_PORT' };
export const healthPortSetting = (app: string): string => HEALTH_PORT_SETTING[app] ?? 'HEALTH_PORT';

/** A setting's value for a container: its own env value, else the settings ConfigMap. */
export function settingValue(objects: K8sObject[], container: Container, name: string): string | undefined {
  const own = container.env?.find((e) => e.name === name);
  if (own) return own.value;
  return settingsConfigMap(objects).data?.[name];
}

export interface ShutdownTiming {
  /** The app's own deadline after SIGTERM (libs/platform/src/shutdown.ts). */
  appDeadlineSeconds: number;
  /** Slack between the app's deadline and the kubelet's SIGKILL. */
  marginSeconds: number;
}

/**
 * Everything an app's Deployment must have, as a list of problems ([] when none): the app's
 * entry point, readiness and liveness probes on the app's configured health port, resource
 * requests and limits, one autoscaler (an HPA or a KEDA ScaledObject), a PodDisruptionBudget,
 * a non-root read-only container, and a grace period the app's shutdown fits in.
 */
export function appProblems(objects: K8sObject[], app: string, timing: ShutdownTiming): string[] {
  const problems: string[] = [];
  const deployment = find(objects, 'Deployment', app);
  if (!deployment) return [`${app}: no Deployment`];
  const spec = podSpec(deployment);
  const container = (spec.containers ?? []).find((c: Container) => c.command?.join(' ') === `node apps/${app}/dist/main.js`) as
    Container | undefined;
  if (!container) return [`${app}: no container runs node apps/${app}/dist/main.js`];

  const podLabels = deployment.spec.template?.metadata?.labels ?? {};
  if (!selects(deployment.spec.selector, podLabels)) problems.push(`${app}: the Deployment's selector does not select its own pods`);
  if (deployment.spec.replicas !== undefined) problems.push(`${app}: spec.replicas is set, but the autoscaler owns the replica count`);

  const portSetting = healthPortSetting(app);
  const configuredPort = Number(settingValue(objects, container, portSetting));
  for (const [probe, path] of [
    ['readinessProbe', '/health/ready'],
    ['livenessProbe', '/health/live'],
  ] as const) {
    const p = container[probe];
    if (p?.httpGet?.path !== path) problems.push(`${app}: ${probe} is not an HTTP GET of ${path}`);
    else if (probePort(container, p) !== configuredPort) {
      problems.push(`${app}: ${probe} port ${probePort(container, p)} is not ${portSetting}=${configuredPort}`);
    }
  }

  for (const resource of ['cpu', 'memory']) {
    const request = quantity(container.resources?.requests?.[resource]);
    const limit = quantity(container.resources?.limits?.[resource]);
    if (!(request > 0) || !(limit > 0)) problems.push(`${app}: ${resource} request and limit must both be set`);
    else if (request > limit) problems.push(`${app}: ${resource} request is above its limit`);
  }

  const hpas = byKind(objects, 'HorizontalPodAutoscaler').filter(
    (h) => h.spec?.scaleTargetRef?.kind === 'Deployment' && h.spec.scaleTargetRef.name === app,
  );
  const scaled = byKind(objects, 'ScaledObject').filter((s) => s.spec?.scaleTargetRef?.name === app);
  if (hpas.length + scaled.length !== 1)
    problems.push(`${app}: ${hpas.length} HPAs and ${scaled.length} ScaledObjects target it; exactly one autoscaler expected`);
  for (const hpa of hpas) {
    const { minReplicas = 1, maxReplicas, metrics = [] } = hpa.spec;
    if (!(maxReplicas >= minReplicas)) problems.push(`${app}: HPA maxReplicas ${maxReplicas} below minReplicas ${minReplicas}`);
    if (metrics.length === 0) problems.push(`${app}: HPA has no metric`);
  }

  const pdbs = byKind(objects, 'PodDisruptionBudget').filter((p) => selects(p.spec?.selector, podLabels));
  if (pdbs.length !== 1) problems.push(`${app}: ${pdbs.length} PodDisruptionBudgets select its pods; one expected`);

  problems.push(...securityProblems(app, spec, containersOf(deployment)));

  const preStopSeconds = Number(
    container.lifecycle?.preStop?.exec?.command?.[0] === 'sleep' ? container.lifecycle.preStop.exec.command[1] : 0,
  );
  const grace = spec.terminationGracePeriodSeconds ?? 30;
  const needed = preStopSeconds + timing.appDeadlineSeconds + timing.marginSeconds;
  if (grace < needed)
    problems.push(
      `${app}: terminationGracePeriodSeconds ${grace} < preStop ${preStopSeconds} s + app deadline ${timing.appDeadlineSeconds} s + margin ${timing.marginSeconds} s`,
    );
  return problems;
}

/** Non-root, no privilege escalation, read-only root filesystem, all capabilities dropped. */
export function securityProblems(name: string, spec: any, containers: Container[]): string[] {
  const problems: string[] = [];
  if (spec.securityContext?.runAsNonRoot !== true) problems.push(`${name}: pod securityContext.runAsNonRoot is not true`);
  if (!(spec.securityContext?.runAsUser > 0)) problems.push(`${name}: pod securityContext.runAsUser is not a non-root uid`);
  for (const c of containers) {
    const sc = c.securityContext ?? {};
    if (sc.allowPrivilegeEscalation !== false) problems.push(`${name}/${c.name}: allowPrivilegeEscalation is not false`);
    if (sc.readOnlyRootFilesystem !== true) problems.push(`${name}/${c.name}: readOnlyRootFilesystem is not true`);
    if (!sc.capabilities?.drop?.includes('ALL')) problems.push(`${name}/${c.name}: capabilities are not all dropped`);
  }
  return problems;
}
