import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';

export interface TsFile {
  /** Path from the repository root, with forward slashes. */
  path: string;
  text: string;
}

/** The generated Prisma client: git-ignored, not ours, with circles of its own. */
const GENERATED = 'libs/db/src/generated';

/** Every .ts file under libs/<lib>/src, for each lib, but the generated Prisma client. */
export function libSources(root: string): TsFile[] {
  const files: TsFile[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const path = relative(root, full).split('\\').join('/');
      if (statSync(full).isDirectory()) {
        if (name !== 'node_modules' && path !== GENERATED) walk(full);
      } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
        files.push({ path, text: readFileSync(full, 'utf8') });
      }
    }
  };
  const libs = join(root, 'libs');
  for (const lib of readdirSync(libs).sort()) {
    const src = join(libs, lib, 'src');
    if (existsSync(src)) walk(src);
  }
  return files;
}

/**
 * The relative specifiers of a file's import and re-export statements, `import type` and
 * `export type … from` included: `import x from './a'`, `import './a'`, `export * from './a'`. Only
 * statements that start a line count, so an import quoted inside a comment or a string does not.
 */
export function relativeImports(text: string): string[] {
  const statement = /^(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]|^import\s*['"]([^'"]+)['"]/gm;
  return [...text.matchAll(statement)].map((m) => m[1] ?? m[2]).filter((spec) => spec.startsWith('.'));
}

/** Edges file → imported file, resolved as TypeScript does for these relative specifiers. */
export function importGraph(files: readonly TsFile[]): Map<string, string[]> {
  const known = new Set(files.map((f) => f.path));
  const resolve = (from: string, spec: string): string | undefined => {
    const base = posix.join(posix.dirname(from), spec).replace(/\.js$/, '');
    return [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => known.has(candidate));
  };
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = relativeImports(file.text)
      .map((spec) => resolve(file.path, spec))
      .filter((t): t is string => t !== undefined);
    graph.set(file.path, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * Every import circle, one line each: a shortest cycle through the first file (in path order) of each
 * strongly connected group of files, e.g. `a.ts → b.ts → a.ts`; when the group holds files that this
 * cycle does not pass through, they follow in parentheses.
 */
export function importCycles(files: readonly TsFile[]): string[] {
  const graph = importGraph(files);
  const cycles: string[] = [];
  for (const group of stronglyConnected(graph)) {
    const [start] = group;
    const self = group.length === 1 && (graph.get(start) ?? []).includes(start);
    if (group.length === 1 && !self) continue;
    const path = shortestCycle(graph, start, new Set(group));
    const rest = group.filter((f) => !path.includes(f));
    cycles.push(path.concat(start).join(' → ') + (rest.length ? ` (with ${rest.join(', ')})` : ''));
  }
  return cycles.sort();
}

/** Tarjan's algorithm, iterative; each group sorted by path. */
function stronglyConnected(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const at = (m: Map<string, number>, node: string) => m.get(node) ?? Infinity;
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let next = 0;
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; i: number }[] = [{ node: root, i: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.i < edges.length) {
        const to = edges[frame.i++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(at(low, frame.node), at(index, to)));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(at(low, parent), at(low, frame.node)));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop();
          if (member === undefined) break;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group.sort());
      }
    }
  }
  return groups;
}

/** The files of a shortest path from start back to start inside the group (start first, not repeated). */
function shortestCycle(graph: Map<string, string[]>, start: string, group: Set<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    for (const to of graph.get(node) ?? []) {
      if (!group.has(to)) continue;
      if (to === start) {
        const path = [node];
        for (let back = previous.get(node); back !== undefined; back = previous.get(back)) path.unshift(back);
        return path;
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}
