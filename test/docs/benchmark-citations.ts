import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A place that names a section of docs/benchmarks.md, e.g. `benchmarks.md, "Faults"`. */
export interface BenchmarkCitation {
  file: string;
  line: number;
  name: string;
}

const CITATION = /benchmarks\.md,?\s+["“]([^"”]+)["”]/g;
const SKIP = new Set(['node_modules', 'dist', '.git', '.nx', 'generated', 'results']);

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    if (SKIP.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (/\.(md|ts|tsx|js|mjs|sh)$/.test(entry)) yield path;
  }
}

/** Every citation of a benchmarks.md section by name under the given folders of the workspace. */
export function benchmarkCitations(root: string, folders: string[]): BenchmarkCitation[] {
  const found: BenchmarkCitation[] = [];
  for (const folder of folders)
    for (const path of files(join(root, folder))) {
      const lines = readFileSync(path, 'utf8').split('\n');
      lines.forEach((text, i) => {
        // a citation may wrap: read the line with the next one
        const window = `${text} ${lines[i + 1] ?? ''}`;
        for (const m of window.matchAll(CITATION))
          if ((m.index ?? 0) < text.length) found.push({ file: relative(root, path), line: i + 1, name: m[1] });
      });
    }
  return found;
}

/** The `## ` headings of docs/benchmarks.md. */
export function benchmarkSections(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((l) => l.startsWith('## '))
    .map((l) => l.slice(3).trim());
}

/** A citation holds when it is a section's name or the start of one ("Past one database"). */
export function citesASection(name: string, sections: string[]): boolean {
  const cited = name.replace(/\s+/g, ' ').trim();
  return sections.some((s) => s === cited || s.startsWith(cited));
}
