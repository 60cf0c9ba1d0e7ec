// The parts of Prisma's DMMF (datamodel meta format) the drift check reads, and the offline way to
// get it: Prisma's own schema parser compiled to wasm (@prisma/prisma-schema-wasm, dev dependency;
// its wasm is byte-identical to node_modules/prisma/build/prisma_schema_build_bg.wasm of prisma 7.10.1).
import { get_dmmf } from '@prisma/prisma-schema-wasm';

export type DmmfDefault = { name: string; args: Array<string | number> } | string | number | boolean | Array<string | number | boolean>;

export interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'object' | 'enum' | 'unsupported';
  isList: boolean;
  isRequired: boolean;
  type: string;
  nativeType?: [string, string[]] | null;
  default?: DmmfDefault;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}

export interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}

export interface DmmfEnum {
  name: string;
  dbName?: string | null;
  values: Array<{ name: string; dbName: string | null }>;
}

export interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  dbName?: string;
  algorithm?: string;
  fields: Array<{ name: string; sortOrder?: 'asc' | 'desc'; operatorClass?: string }>;
}

export interface DmmfDatamodel {
  models: DmmfModel[];
  enums: DmmfEnum[];
  indexes: DmmfIndex[];
}

/** Parses a Prisma schema offline; throws Prisma's validation error for an invalid schema. */
export function getDatamodel(prismaSchema: string): DmmfDatamodel {
  let raw: string;
  try {
    raw = get_dmmf(JSON.stringify({ prismaSchema }));
  } catch (error) {
    throw new Error(`Prisma schema is invalid: ${readableWasmError(error)}`);
  }
  return (JSON.parse(raw) as { datamodel: DmmfDatamodel }).datamodel;
}

function readableWasmError(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  try {
    const parsed = JSON.parse(text) as { message?: string };
    // eslint-disable-next-line no-control-regex
    return (parsed.message ?? text).replace(/\u001b\[[0-9;]*m/g, '');
  } catch {
    return text;
  }
}
