import { formatFiles, type Tree } from '@nx/devkit';
import { addExportStar, addImport, appendToArray, assertKebab, camel, constant, pascal } from '../names';
import { contractFile, specFile, useCaseFile, type OperationNames } from './templates';

export interface OperationOptions {
  service: string;
  name: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  subject?: string;
  phone?: 'none' | 'optional' | 'required';
  tag?: string;
  summary?: string;
  contracts?: string;
  /** Tests leave formatting out (Prettier is optional in this workspace). */
  skipFormat?: boolean;
}

/** Contract folders whose name differs from their service's. */
const CONTRACTS_DIR: Record<string, string> = { importer: 'imports' };

export function operationNames(o: OperationOptions): OperationNames {
  assertKebab('service', o.service);
  assertKebab('name', o.name);
  if (!o.path.startsWith('/')) throw new Error(`path "${o.path}" must start with / (it is under /v1)`);
  const method = o.method ?? 'GET';
  const contracts = o.contracts ?? CONTRACTS_DIR[o.service] ?? o.service;
  return {
    service: o.service,
    contracts,
    name: o.name,
    type: pascal(o.name),
    operationId: camel(o.name),
    method,
    path: o.path,
    pathParams: [...o.path.matchAll(/\{([a-zA-Z_]+)\}/g)].map((m) => m[1]),
    hasBody: method === 'POST' || method === 'PUT' || method === 'PATCH',
    subject: o.subject ?? `${contracts}.v1.${o.name}`,
    phone: o.phone ?? 'optional',
    tag: o.tag ?? o.service,
    summary:
      o.summary ??
      pascal(o.name)
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .replace(/^./, (c) => c.toUpperCase()),
  };
}

/**
 * `nx g @mapi/generators:operation`: the contract folder (zod schemas, versioned subject, route) exported
 * from the service's contracts index and listed in its routes (so the gateway serves it and the OpenAPI
 * document and the generated-input test have it), the use case with a spec that runs, and the line of
 * the service's handler table.
 */
export default async function operationGenerator(tree: Tree, options: OperationOptions): Promise<void> {
  const n = operationNames(options);
  const contractsDir = `libs/contracts/src/${n.contracts}`;
  const contractsIndex = `${contractsDir}/index.ts`;
  const feature = `libs/${n.service}-feature/src`;
  const handlers = `${feature}/${n.service}.handlers.ts`;
  for (const file of [contractsIndex, handlers]) {
    if (!tree.exists(file)) throw new Error(`${file} does not exist: is "${n.service}" a service (nx g @mapi/generators:service)?`);
  }
  const contract = `${contractsDir}/${n.name}/${n.name}.contract.ts`;
  const useCase = `${feature}/usecases/${n.name}/${n.name}.usecase.ts`;
  for (const file of [contract, useCase]) {
    if (tree.exists(file)) throw new Error(`${file} exists already`);
  }

  tree.write(contract, contractFile(n));
  tree.write(useCase, useCaseFile(n));
  tree.write(`${feature}/usecases/${n.name}/${n.name}.usecase.spec.ts`, specFile(n));

  const routesMarker = `export const ${constant(n.contracts)}_ROUTES`;
  let index = tree.read(contractsIndex, 'utf-8') ?? '';
  index = addImport(index, `import { ${n.type}Route } from './${n.name}/${n.name}.contract';`);
  index = addExportStar(index, `export * from './${n.name}/${n.name}.contract';`, routesMarker);
  index = appendToArray(index, routesMarker, `${n.type}Route`, contractsIndex);
  tree.write(contractsIndex, index);

  let table = tree.read(handlers, 'utf-8') ?? '';
  table = addImport(table, `import { ${n.type}Rpc } from '@mapi/contracts';`);
  table = addImport(table, `import { ${n.type} } from './usecases/${n.name}/${n.name}.usecase';`);
  table = appendToArray(table, `export const ${constant(n.service)}_HANDLERS`, `serve(${n.type}Rpc, () => new ${n.type}())`, handlers);
  tree.write(handlers, table);

  if (!options.skipFormat) await formatFiles(tree);
}
