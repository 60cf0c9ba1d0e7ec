import { constant, pascal } from '../names';

/** Files of a new service, by path: app, feature library, contracts folder, tables file, deployment. */
export function serviceFiles(name: string, description: string): Record<string, string> {
  const type = pascal(name);
  const project = (kind: 'application' | 'library', root: string, tags: string[]) =>
    `${JSON.stringify(
      {
        name: root.split('/')[1],
        $schema: '../../node_modules/nx/schemas/project-schema.json',
        projectType: kind,
        sourceRoot: `${root}/src`,
        tags,
        targets: {
          build: {
            executor: 'nx:run-commands',
            options: { cwd: root, command: 'rm -rf dist && swc src -d dist --strip-leading-paths --config-file ../../.swcrc --quiet' },
          },
        },
      },
      null,
      2,
    )}\n`;
  const pkg = (pkgName: string, main: string) =>
    `${JSON.stringify({ name: pkgName, version: '0.1.0', private: true, main, types: 'src/index.ts' }, null, 2)}\n`;
  const app = `apps/${name}`;
  const lib = `libs/${name}-feature`;
  return {
    [`${app}/src/instrument.ts`]: `// Loaded first by main.ts: OpenTelemetry must patch http and pg before anything imports them.
import { startTelemetry } from '@mapi/platform/telemetry';

startTelemetry('${name}');
`,
    [`${app}/src/main.ts`]: `import './instrument';
import { runMain } from '@mapi/platform';
import { bootstrap${type}Service } from '@mapi/${name}-feature';

runMain('${name}', bootstrap${type}Service);
`,
    [`${app}/project.json`]: project('application', app, [`scope:${name}`, 'type:app']),
    [`${app}/package.json`]: pkg(`@mapi/${name}-app`, 'dist/main.js'),
    [`${lib}/project.json`]: project('library', lib, [`scope:${name}`, 'type:feature']),
    [`${lib}/package.json`]: pkg(`@mapi/${name}-feature`, 'dist/index.js'),
    [`${lib}/src/index.ts`]: `export * from './bootstrap';
export * from './${name}.handlers';
`,
    [`${lib}/src/${name}.handlers.ts`]: `import type { PrismaClient } from '@mapi/db';
import { rpcHandler } from '@mapi/platform';

export interface ${type}Deps {
  prisma: PrismaClient;
}

const serve = rpcHandler<${type}Deps>();

/** What the ${name} service answers: one line per operation, its contract and its use case. */
export const ${constant(name)}_HANDLERS: ReturnType<typeof serve>[] = [];
`,
    [`${lib}/src/bootstrap.ts`]: `import { createPrismaClient } from '@mapi/db';
import { bindHandlers, connectNats, createLogger, loadConfig, natsIndicator, postgresIndicator, startRpcService } from '@mapi/platform';
import { ${constant(name)}_HANDLERS } from './${name}.handlers';

/** Starts the ${name} service: ${description}; health and metrics on HEALTH_PORT. */
export async function bootstrap${type}Service(): Promise<void> {
  const config = loadConfig(['app', 'database', 'nats', 'health', 'telemetry']);
  const ns = config.app.NAMESPACE;
  const logger = createLogger('${name}', config.telemetry.LOG_LEVEL);
  const prisma = createPrismaClient({ url: config.database.DATABASE_URL, poolSize: config.database.DATABASE_POOL_SIZE });
  const nc = await connectNats(config.nats.NATS_URL, '${name}');
  await startRpcService({
    name: '${name}',
    nc,
    namespace: ns,
    logger,
    nodeEnv: config.app.NODE_ENV,
    rpc: { handlers: bindHandlers(${constant(name)}_HANDLERS, { prisma }) },
    health: {
      host: config.health.HEALTH_HOST,
      port: config.health.HEALTH_PORT,
      indicators: [postgresIndicator(() => prisma.$queryRaw\`SELECT 1\`), natsIndicator(nc)],
    },
    disconnect: [() => prisma.$disconnect()],
  });
}
`,
    [`libs/contracts/src/${name}/index.ts`]: `import type { RouteContract } from '../http/define-route';

/** The ${name} service's public routes. */
export const ${constant(name)}_ROUTES: readonly RouteContract[] = [];
`,
    [`prisma/schema/${name}.prisma`]: `// owner: ${name}
// ${description}. Owned by the ${name} service: only its repositories read and write these tables
// (test/boundaries/table-ownership.spec.ts); another service's data is reached through its RPCs.
`,
    ...deployFiles(name),
  };
}

function deployFiles(name: string): Record<string, string> {
  const dir = `deploy/base/apps/${name}`;
  return {
    [`${dir}/kustomization.yaml`]: `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - deployment.yaml
  - hpa.yaml
  - pdb.yaml
`,
    [`${dir}/deployment.yaml`]: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  labels:
    app.kubernetes.io/name: ${name}
    app.kubernetes.io/component: service
spec:
  # No replicas: the HorizontalPodAutoscaler owns the count (re-applying must not reset it).
  selector:
    matchLabels:
      app.kubernetes.io/name: ${name}
  template:
    metadata:
      labels:
        app.kubernetes.io/name: ${name}
        app.kubernetes.io/component: service
    spec:
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              app.kubernetes.io/name: ${name}
      containers:
        - name: app
          command: ["node", "apps/${name}/dist/main.js"]
          env:
            - name: OTEL_SERVICE_NAME
              value: ${name}
          ports:
            - name: health
              containerPort: 8081
          startupProbe:
            httpGet:
              path: /health/live
              port: health
            periodSeconds: 2
            failureThreshold: 30
          readinessProbe:
            httpGet:
              path: /health/ready
              port: health
            periodSeconds: 5
            timeoutSeconds: 3
            failureThreshold: 2
          livenessProbe:
            httpGet:
              path: /health/live
              port: health
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 3
          resources:
            requests:
              cpu: 100m
              memory: 256Mi
            limits:
              cpu: "1"
              memory: 512Mi
`,
    [`${dir}/hpa.yaml`]: `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ${name}
  labels:
    app.kubernetes.io/name: ${name}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: ${name}
  minReplicas: 2
  maxReplicas: 8
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: 70
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 300
      policies:
        - type: Pods
          value: 1
          periodSeconds: 60
`,
    [`${dir}/pdb.yaml`]: `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: ${name}
  labels:
    app.kubernetes.io/name: ${name}
spec:
  # One pod at a time during node drains; works with one replica (dev) and with many.
  maxUnavailable: 1
  selector:
    matchLabels:
      app.kubernetes.io/name: ${name}
`,
  };
}

/** The headless Service Prometheus scrapes the app's /metrics through (deploy/components/monitoring). */
export function metricsService(name: string): string {
  return `---
apiVersion: v1
kind: Service
metadata:
  name: ${name}-metrics
  labels:
    app.kubernetes.io/name: ${name}
    app.kubernetes.io/part-of: mapi
    app.kubernetes.io/component: metrics
spec:
  clusterIP: None
  selector:
    app.kubernetes.io/name: ${name}
  ports:
    - name: metrics
      port: 8081
      targetPort: health
`;
}

/** The app's block of docker-compose.yml, like the other services'. */
export function composeService(name: string): string {
  return `  ${name}:
    <<: *app
    command: ["node", "apps/${name}/dist/main.js"]
    environment:
      <<: *settings
      OTEL_SERVICE_NAME: ${name}
    healthcheck:
      test: ["CMD", "node", "-e", "fetch('http://127.0.0.1:8081/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
      interval: 5s
      retries: 20

`;
}
