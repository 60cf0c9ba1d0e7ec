import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './repo';

/** A rendered Kubernetes object, loosely typed: the tests read fields by path. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

export const overlayNames = (): string[] => readdirSync(join(ROOT, 'deploy', 'overlays')).sort();

/** `kubectl kustomize <dir>` (kubectl's built-in kustomize, no cluster needed), parsed. */
export function renderKustomization(dir: string): K8sObject[] {
  let out: string;
  try {
    out = execFileSync('kubectl', ['kustomize', join(ROOT, dir)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { code?: string; stderr?: string; message: string };
    if (e.code === 'ENOENT')
      throw new Error('kubectl is not installed: the deployment tests render the manifests with `kubectl kustomize`');
    throw new Error(`kubectl kustomize ${dir} failed:\n${e.stderr ?? e.message}`);
  }
  return parseAllDocuments(out).map((doc) => {
    if (doc.errors.length) throw new Error(`rendered YAML of ${dir} does not parse: ${doc.errors[0].message}`);
    return doc.toJS() as K8sObject;
  });
}

const cache = new Map<string, K8sObject[]>();
export function renderOverlay(name: string): K8sObject[] {
  const rendered = cache.get(name) ?? renderKustomization(`deploy/overlays/${name}`);
  cache.set(name, rendered);
  // Copies, so a test that mutates an object cannot change what the next test sees.
  return structuredClone(rendered);
}

export const byKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);
export const find = (objects: K8sObject[], kind: string, name: string): K8sObject | undefined =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);

/** Like find, but a missing object is an error naming it. */
export function get(objects: K8sObject[], kind: string, name: string): K8sObject {
  const object = find(objects, kind, name);
  if (!object) throw new Error(`no ${kind} ${name} in the rendered manifests`);
  return object;
}

/** The first object of a kind; an error when there is none. */
export function first(objects: K8sObject[], kind: string, where: (o: K8sObject) => boolean = () => true): K8sObject {
  const object = objects.find((o) => o.kind === kind && where(o));
  if (!object) throw new Error(`no matching ${kind} in the rendered manifests`);
  return object;
}
