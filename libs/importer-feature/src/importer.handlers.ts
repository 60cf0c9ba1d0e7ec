import { CutoverRpc, GetIdMapRpc, GetImportRpc, ListImportFailuresRpc, ListImportsRpc, StartImportRpc } from '@mapi/contracts';
import type { PrismaClient } from '@mapi/db';
import { rpcHandler, type NatsRpcClient } from '@mapi/platform';
import { FailureRepository } from './repositories/failure-repository';
import { IdMapRepository } from './repositories/id-map-repository';
import { ImportRunRepository } from './repositories/import-run-repository';
import type { ImportLauncher } from './run/import-launcher';
import { Cutover } from './usecases/cutover/cutover.usecase';
import { GetIdMap } from './usecases/get-id-map/get-id-map.usecase';
import { GetImport } from './usecases/get-import/get-import.usecase';
import { ListImportFailures } from './usecases/list-failures/list-failures.usecase';
import { ListImports } from './usecases/list-imports/list-imports.usecase';
import { StartImport } from './usecases/start-import/start-import.usecase';

export interface ImporterDeps {
  prisma: PrismaClient;
  launcher: ImportLauncher;
  /** The owning services' public RPCs (the cut-over switches on through them). */
  rpc: NatsRpcClient;
}

const serve = rpcHandler<ImporterDeps>();

export const IMPORTER_HANDLERS = [
  serve(StartImportRpc, (d) => new StartImport(new ImportRunRepository(d.prisma), d.launcher)),
  serve(GetImportRpc, (d) => new GetImport(new ImportRunRepository(d.prisma))),
  serve(ListImportsRpc, (d) => new ListImports(new ImportRunRepository(d.prisma))),
  serve(GetIdMapRpc, (d) => new GetIdMap(new ImportRunRepository(d.prisma), new IdMapRepository(d.prisma))),
  serve(ListImportFailuresRpc, (d) => new ListImportFailures(new ImportRunRepository(d.prisma), new FailureRepository(d.prisma))),
  serve(CutoverRpc, (d) => new Cutover(new ImportRunRepository(d.prisma), new IdMapRepository(d.prisma), d.rpc)),
];
