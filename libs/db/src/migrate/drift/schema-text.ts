/** Facts about a Prisma schema that its DMMF does not carry, read from the schema text. */
export interface SchemaTextFacts {
  /** Unsupported("...") fields per model name (DMMF omits them). */
  unsupported: Map<string, UnsupportedField[]>;
  /** `Model.relationField` -> the foreign key name given with `@relation(map: "...")`. */
  relationMaps: Map<string, string>;
  /** `relationMode = "prisma"`: Prisma creates no foreign keys. */
  relationModePrisma: boolean;
}

export interface UnsupportedField {
  field: string;
  column: string;
  /** The database type, lowercased, as written in Unsupported("..."). */
  type: string;
  optional: boolean;
  list: boolean;
  /** The expression of `@default(dbgenerated("..."))`, null without one. */
  dbgenerated: string | null;
}

const MODEL_BLOCK = /^\s*model\s+(\w+)\s*\{([\s\S]*?)^\s*\}/gm;
const UNSUPPORTED_FIELD = /^\s*(\w+)\s+Unsupported\(\s*"((?:[^"\\]|\\.)*)"\s*\)(\?|\[\])?(.*)$/;
const RELATION_FIELD = /^\s*(\w+)\s+\w+(?:\?|\[\])?\s+.*@relation\(([^)]*)\)/;

export function readSchemaText(schema: string): SchemaTextFacts {
  const facts: SchemaTextFacts = {
    unsupported: new Map(),
    relationMaps: new Map(),
    relationModePrisma: /relationMode\s*=\s*"prisma"/.test(stripComments(schema)),
  };
  for (const block of stripComments(schema).matchAll(MODEL_BLOCK)) {
    const model = block[1];
    for (const line of block[2].split('\n')) {
      const unsupported = UNSUPPORTED_FIELD.exec(line);
      if (unsupported) {
        const [, field, type, modifier, rest] = unsupported;
        const list = facts.unsupported.get(model) ?? [];
        list.push({
          field,
          column: stringArg(rest, /@map\(\s*(?:name:\s*)?"((?:[^"\\]|\\.)*)"/) ?? field,
          type: unescape(type).toLowerCase(),
          optional: modifier === '?',
          list: modifier === '[]',
          dbgenerated: stringArg(rest, /@default\(\s*dbgenerated\(\s*"((?:[^"\\]|\\.)*)"\s*\)\s*\)/),
        });
        facts.unsupported.set(model, list);
        continue;
      }
      const relation = RELATION_FIELD.exec(line);
      const map = relation ? stringArg(relation[2], /\bmap:\s*"((?:[^"\\]|\\.)*)"/) : null;
      if (relation && map !== null) facts.relationMaps.set(`${model}.${relation[1]}`, map);
    }
  }
  return facts;
}

function stringArg(text: string, pattern: RegExp): string | null {
  const match = pattern.exec(text);
  return match ? unescape(match[1]) : null;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/** Drops `//` and `///` comments outside string literals. */
function stripComments(schema: string): string {
  return schema
    .split('\n')
    .map((line) => {
      let inString = false;
      for (let i = 0; i < line.length; i++) {
        const char = line[i];
        if (char === '\\' && inString) i++;
        else if (char === '"') inString = !inString;
        else if (!inString && char === '/' && line[i + 1] === '/') return line.slice(0, i);
      }
      return line;
    })
    .join('\n');
}
