import { formatFiles, updateJson, type Tree } from '@nx/devkit';
import { addExportStar, addImport, appendToArray, assertKebab, constant } from '../names';
import { composeService, metricsService, serviceFiles } from './templates';

export interface ServiceOptions {
  name: string;
  description?: string;
  /** Tests leave formatting out (Prettier is optional in this workspace). */
  skipFormat?: boolean;
}

/**
 * `nx g @mapi/generators:service`: the app (main.ts, instrument.ts), the feature library (bootstrap
 * through the platform's startRpcService for health and metrics, an empty handler table), an empty
 * contracts folder listed in ROUTES, the tables file with its owner line, the deployment, and the
 * entries of the workspace's lists a service must be in (path alias, boundary scope, coverage test).
 */
export default async function serviceGenerator(tree: Tree, options: ServiceOptions): Promise<void> {
  const name = options.name;
  assertKebab('name', name);
  if (tree.exists(`apps/${name}`) || tree.exists(`libs/${name}-feature`)) throw new Error(`service ${name} exists already`);
  for (const [path, text] of Object.entries(serviceFiles(name, options.description ?? 'TODO: what this service owns')))
    tree.write(path, text);

  updateJson(tree, 'tsconfig.base.json', (json) => {
    json.compilerOptions.paths[`@mapi/${name}-feature`] = [`libs/${name}-feature/src/index.ts`];
    return json;
  });
  edit(tree, 'eslint.config.mjs', (text) => appendToArray(text, 'const SERVICE_SCOPES', `'${name}'`, 'eslint.config.mjs'));
  edit(tree, 'libs/contracts/src/index.ts', (text) => addExportStar(text, `export * from './${name}';`, ''));
  edit(tree, 'libs/contracts/src/routes.ts', (text) =>
    appendToArray(
      addImport(text, `import { ${constant(name)}_ROUTES } from './${name}';`),
      'export const ROUTES',
      `...${constant(name)}_ROUTES`,
      'routes.ts',
    ),
  );
  edit(tree, 'test/boundaries/rpc-coverage.spec.ts', (text) =>
    appendToArray(
      addImport(text, `import { ${constant(name)}_HANDLERS } from '@mapi/${name}-feature';`),
      'const SERVICES',
      `'${name}': ${constant(name)}_HANDLERS`,
      'rpc-coverage.spec.ts',
    ),
  );
  edit(tree, 'deploy/base/kustomization.yaml', (text) => text.replace(/(\n {2}- apps\/[^\n]+\n)(?!\s*- apps\/)/, `$1  - apps/${name}\n`));
  edit(tree, 'deploy/components/monitoring/metrics-services.yaml', (text) => `${text.trimEnd()}\n${metricsService(name)}`);
  edit(tree, 'docker-compose.yml', (text) => {
    const at = text.search(/\n {2}inbox:\n/);
    if (at < 0) throw new Error('docker-compose.yml: no inbox service to place the new one before');
    return `${text.slice(0, at + 1)}${composeService(name)}${text.slice(at + 1)}`;
  });

  if (!options.skipFormat) await formatFiles(tree);
}

function edit(tree: Tree, path: string, change: (text: string) => string): void {
  const text = tree.read(path, 'utf-8');
  if (text === null) throw new Error(`${path} does not exist`);
  tree.write(path, change(text));
}
