import { securityProblems } from './support/app-checks';
import { byKind, find, get, renderOverlay, type K8sObject } from './support/render';
import { runnableApps } from './support/repo';
import { containersOf, podSpec, settingsConfigMap } from './support/workloads';

/**
 * The pooler of the prod overlay (deploy/components/pgbouncer, docs/operations.md "Connection
 * budget"): PgBouncer in transaction mode in front of Postgres, reached only from the namespace, the
 * apps told so (DATABASE_POOLER) and given Postgres itself for LISTEN and the migration lock.
 */
const pooler = (objects: K8sObject[]) => get(objects, 'Deployment', 'pgbouncer');
const ini = (objects: K8sObject[]) => {
  const maps = byKind(objects, 'ConfigMap').filter((c) => c.metadata.name.startsWith('pgbouncer-config'));
  expect(maps).toHaveLength(1);
  return maps[0].data?.['pgbouncer.ini'] ?? '';
};
const setting = (text: string, key: string) => new RegExp(`^${key}[ \\t]*=[ \\t]*(.*)$`, 'm').exec(text)?.[1]?.trim();
const directUrlEnv = (container: { env?: { name: string; valueFrom?: any }[] }) =>
  container.env?.find((e) => e.name === 'DATABASE_DIRECT_URL');

describe('deploy/components/pgbouncer in the prod overlay', () => {
  const prod = () => renderOverlay('prod');

  it('runs two PgBouncer replicas, pinned image, non-root, with a PDB, a Service on 6432 and the mounted config', () => {
    const objects = prod();
    const d = pooler(objects);
    expect(d.spec.replicas).toBeGreaterThanOrEqual(2);
    const [c] = containersOf(d);
    expect((c as { image?: string }).image).toMatch(/pgbouncer:\d+\.\d+\.\d+/);
    expect(securityProblems('pgbouncer', podSpec(d), containersOf(d))).toEqual([]);
    expect(c.readinessProbe?.tcpSocket).toBeDefined();
    expect(get(objects, 'PodDisruptionBudget', 'pgbouncer').spec.minAvailable).toBe(1);
    expect(get(objects, 'Service', 'pgbouncer').spec.ports.map((p: { port: number }) => p.port)).toEqual([6432]);
    const mounted = podSpec(d).volumes.map(
      (v: { configMap?: { name: string }; secret?: { secretName: string } }) => v.configMap?.name ?? v.secret?.secretName,
    );
    expect(mounted).toEqual(expect.arrayContaining([expect.stringMatching(/^pgbouncer-config/), 'mapi-pgbouncer']));
  });

  it('pools by transaction toward the postgres Service, with bounded server connections and SCRAM', () => {
    const text = ini(prod());
    expect(setting(text, 'pool_mode')).toBe('transaction');
    expect(setting(text, '\\*')).toMatch(/host=postgres port=5432/);
    expect(setting(text, 'auth_type')).toBe('scram-sha-256');
    expect(Number(setting(text, 'max_db_connections'))).toBeGreaterThan(0);
    expect(Number(setting(text, 'max_client_conn'))).toBeGreaterThanOrEqual(1000); // the apps' pools at the HPA maximums
    expect(setting(text, 'server_reset_query')).toBe(''); // nothing session-scoped to reset in transaction mode
  });

  it('admits only pods of its own namespace, on 6432', () => {
    const policy = get(prod(), 'NetworkPolicy', 'pgbouncer-ingress');
    expect(policy.spec.podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'pgbouncer' });
    expect(policy.spec.ingress).toEqual([{ from: [{ podSelector: {} }], ports: [{ port: 6432, protocol: 'TCP' }] }]);
  });

  it('tells every app (DATABASE_POOLER=pgbouncer) and gives each, and the migration, an optional direct URL', () => {
    const objects = prod();
    expect(settingsConfigMap(objects).data?.DATABASE_POOLER).toBe('pgbouncer');
    const apps = runnableApps().filter((a) => a !== 'console');
    for (const app of apps) {
      const [container] = containersOf(get(objects, 'Deployment', app));
      expect({ app, direct: directUrlEnv(container)?.valueFrom?.secretKeyRef }).toEqual({
        app,
        direct: { name: 'mapi-secrets', key: 'DATABASE_DIRECT_URL', optional: true },
      });
    }
    const [migrate] = containersOf(get(objects, 'Job', 'mapi-migrate'));
    expect(directUrlEnv(migrate)?.valueFrom?.secretKeyRef?.key).toBe('DATABASE_DIRECT_URL');
  });

  it('is not in the dev overlay, whose apps reach Postgres directly', () => {
    const dev = renderOverlay('dev');
    expect(find(dev, 'Deployment', 'pgbouncer')).toBeUndefined();
    expect(settingsConfigMap(dev).data?.DATABASE_POOLER).toBe('none');
  });
});
