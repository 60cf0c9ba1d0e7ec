import type { ClientBase } from 'pg';
import { compareShapes } from './compare';
import { getDatamodel } from './dmmf';
import { expectedShape } from './expected';
import { introspectShape } from './introspect';

export { compareShapes, IGNORED_TABLES } from './compare';
export { getDatamodel } from './dmmf';
export { expectedShape } from './expected';
export { introspectShape } from './introspect';
export type { SchemaShape, TableShape, ColumnShape, IndexShape, ForeignKeyShape, EnumShape } from './shape';

/**
 * Differences between what `prismaSchema` describes and the current schema of the database that
 * `client` is connected to (one readable line each; empty when they agree).
 */
export async function findSchemaDrift(client: ClientBase, prismaSchema: string): Promise<string[]> {
  const expected = expectedShape(getDatamodel(prismaSchema), prismaSchema);
  return compareShapes(expected, await introspectShape(client));
}
