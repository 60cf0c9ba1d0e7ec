import { byKind, find, type K8sObject } from './render';

export interface Container {
  name: string;
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: any }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  readinessProbe?: any;
  livenessProbe?: any;
  startupProbe?: any;
  resources?: { requests?: Record<string, string | number>; limits?: Record<string, string | number> };
  securityContext?: any;
  lifecycle?: any;
}

/** The pod template spec of a Deployment or Job. */
export const podSpec = (workload: K8sObject): any => workload.spec?.template?.spec ?? {};

export const containersOf = (workload: K8sObject): Container[] => [
  ...((podSpec(workload).initContainers ?? []) as Container[]),
  ...((podSpec(workload).containers ?? []) as Container[]),
];

/** The name of the settings ConfigMap as rendered (kustomize adds a content hash). */
export function settingsConfigMap(objects: K8sObject[]): K8sObject {
  const maps = byKind(objects, 'ConfigMap').filter((c) => c.metadata.name.startsWith('mapi-config'));
  if (maps.length !== 1) throw new Error(`expected one mapi-config ConfigMap, found ${maps.length}`);
  return maps[0];
}

/** Every environment variable name a container gets: envFrom ConfigMaps/Secrets (as rendered) and env. */
export function envNames(objects: K8sObject[], container: Container): string[] {
  const names = new Set<string>();
  for (const source of container.envFrom ?? []) {
    const ref = source.configMapRef ?? source.secretRef;
    const kind = source.configMapRef ? 'ConfigMap' : 'Secret';
    const object = ref && find(objects, kind, ref.name);
    if (!object) throw new Error(`container ${container.name}: envFrom ${kind} ${ref?.name} is not in the rendered manifests`);
    Object.keys(object.data ?? {}).forEach((key) => names.add(key));
  }
  for (const variable of container.env ?? []) names.add(variable.name);
  return [...names].sort();
}

/** The number behind a probe's port (a number or the name of a container port). */
export function probePort(container: Container, probe: any): number | undefined {
  const port = probe?.httpGet?.port;
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

/** Kubernetes quantities as numbers (cores, bytes) so requests and limits can be compared. */
export function quantity(value: string | number | undefined): number {
  if (value === undefined) return NaN;
  if (typeof value === 'number') return value;
  const match = /^([0-9.]+)(m|k|M|G|Ki|Mi|Gi)?$/.exec(value);
  if (!match) return NaN;
  const scale: Record<string, number> = { m: 1e-3, k: 1e3, M: 1e6, G: 1e9, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 };
  return Number(match[1]) * (match[2] ? scale[match[2]] : 1);
}

/** Whether a label selector ({ matchLabels }) selects pods with these labels. */
export function selects(selector: any, labels: Record<string, string> = {}): boolean {
  const wanted = Object.entries(selector?.matchLabels ?? {});
  return wanted.length > 0 && wanted.every(([k, v]) => labels[k] === v);
}
