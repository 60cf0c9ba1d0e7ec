import type { K8sObject } from './render';

/**
 * Offline validation of rendered objects against the Kubernetes API schemas: `kubernetes-models`
 * bundles the upstream OpenAPI definitions (Kubernetes 1.32 APIs) compiled to JSON-schema
 * validators, and `@kubernetes-models/keda` and `@kubernetes-models/prometheus-operator` do the
 * same for KEDA's and the Prometheus Operator's CRDs (ScaledObject, ServiceMonitor). A kind without a
 * bundled schema is an error, not a pass.
 */
export const MODULES: Record<string, string> = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'batch/v1': 'kubernetes-models/batch/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'policy/v1': 'kubernetes-models/policy/v1',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};

type Model = new (data: unknown) => { validate(): void };

function modelFor(apiVersion: string, kind: string): Model | undefined {
  const path = MODULES[apiVersion];
  if (!path) return undefined;
  const group = require(path) as Record<string, Model | undefined>;
  return group[kind];
}

/** Problems of one object against its kind's schema; [] when it validates. */
export function schemaProblems(object: K8sObject): string[] {
  const name = `${object.kind ?? '?'}/${object.metadata?.name ?? '?'}`;
  const Model = modelFor(object.apiVersion, object.kind);
  if (!Model) return [`${name}: no bundled schema for ${object.apiVersion} ${object.kind}`];
  try {
    new Model(withoutBase64LineBreaks(object)).validate();
    return [];
  } catch (error) {
    return [`${name}: ${(error as Error).message}`];
  }
}

/**
 * kustomize folds long base64 values of Secrets over several lines; the API server's decoder
 * (Go's encoding/base64) ignores line breaks, while the schema's "byte" format does not.
 */
function withoutBase64LineBreaks(object: K8sObject): K8sObject {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.fromEntries(Object.entries(object.data).map(([k, v]) => [k, typeof v === 'string' ? v.replace(/[\r\n]/g, '') : v]));
  return { ...object, data };
}
