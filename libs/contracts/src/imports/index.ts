import type { RouteContract } from '../http/define-route';
import { CutoverRoute } from './cutover/cutover.contract';
import { GetIdMapRoute } from './get-id-map/get-id-map.contract';
import { GetImportRoute } from './get-import/get-import.contract';
import { ListImportFailuresRoute } from './list-failures/list-failures.contract';
import { ListImportsRoute } from './list-imports/list-imports.contract';
import { StartImportRoute } from './start-import/start-import.contract';

export * from './import-batch';
export * from './import/import.schema';
export * from './start-import/start-import.contract';
export * from './get-import/get-import.contract';
export * from './list-imports/list-imports.contract';
export * from './get-id-map/get-id-map.contract';
export * from './list-failures/list-failures.contract';
export * from './cutover/cutover.contract';

/** The importer's public routes (docs/services/imports.md). */
export const IMPORTS_ROUTES: readonly RouteContract[] = [
  StartImportRoute,
  ListImportsRoute,
  GetImportRoute,
  GetIdMapRoute,
  ListImportFailuresRoute,
  CutoverRoute,
];
