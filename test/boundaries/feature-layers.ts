import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { importGraph, type TsFile } from './import-cycles';

/**
 * The bottom layers of every feature library, lowest first: folders under its src/. A file in one may
 * import only files of its own layer or a lower one; every other folder (mappers, use cases, ingest,
 * the handler table) sits above them and imports down. Each libs/<name>-feature with a repositories/
 * folder has them: rows/ (row types and shared SQL, where the library has any) under repositories/.
 */
export function featureLayers(root: string): Record<string, string[]> {
  const layers: Record<string, string[]> = {};
  for (const lib of readdirSync(join(root, 'libs')).sort()) {
    const src = `libs/${lib}/src`;
    if (!lib.endsWith('-feature') || !existsSync(join(root, src, 'repositories'))) continue;
    layers[src] = existsSync(join(root, src, 'rows')) ? ['rows', 'repositories'] : ['repositories'];
  }
  return layers;
}

const isSpec = (path: string) => /\.(int-)?spec\.ts$|\.e2e-spec\.ts$/.test(path);

/** The layer of a file under `src` (its index in `layers`), or undefined when it sits above them. */
function layerOf(src: string, layers: readonly string[], path: string): number | undefined {
  if (!path.startsWith(`${src}/`)) return undefined;
  const folder = path.slice(src.length + 1).split('/')[0];
  const i = layers.indexOf(folder);
  return i < 0 ? undefined : i;
}

/** Every import that runs up a library's layers, as "file → imported file"; tests may import anything. */
export function layerViolations(files: readonly TsFile[], rules: Readonly<Record<string, readonly string[]>>): string[] {
  const graph = importGraph(files);
  const found: string[] = [];
  for (const [src, layers] of Object.entries(rules))
    for (const [from, targets] of graph) {
      const own = layerOf(src, layers, from);
      if (own === undefined || isSpec(from)) continue;
      for (const to of targets) {
        const theirs = layerOf(src, layers, to);
        if (theirs === undefined || theirs > own) found.push(`${from} → ${to}`);
      }
    }
  return found.sort();
}
