import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchmarkCitations, benchmarkSections, citesASection } from './benchmark-citations';

const ROOT = join(__dirname, '..', '..');
const FOLDERS = ['docs', 'libs', 'apps', 'bench', 'scripts', 'test', 'tools'];

describe('citations of docs/benchmarks.md', () => {
  const sections = benchmarkSections(readFileSync(join(ROOT, 'docs/benchmarks.md'), 'utf8'));

  it('name a section the page has, so a reader lands on the current figure', () => {
    const broken = benchmarkCitations(ROOT, FOLDERS)
      // (this folder's own fixtures cite missing sections on purpose)
      .filter((c) => !c.file.startsWith('test/docs/') && !citesASection(c.name, sections))
      .map((c) => `${c.file}:${c.line}: "${c.name}"`);
    expect(broken).toEqual([]);
  });

  it('are found where they are written, wrapped or not', () => {
    // the checker itself: a citation it cannot see would make the test above pass for nothing
    expect(citesASection('Faults', ['Faults'])).toBe(true);
    expect(citesASection('Past one database', ['Past one database: 1M vs 10M messages'])).toBe(true);
    expect(citesASection('Round 3', sections)).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'citations-'));
    try {
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs/a.md'), 'as measured (docs/benchmarks.md, "Faults") and\nsee benchmarks.md "Past one\ndatabase" too\n');
      writeFileSync(join(dir, 'docs/b.ts'), '// (benchmarks.md, “Round 3”)\n');
      expect(benchmarkCitations(dir, ['docs'])).toEqual([
        { file: 'docs/a.md', line: 1, name: 'Faults' },
        { file: 'docs/a.md', line: 2, name: 'Past one database' },
        { file: 'docs/b.ts', line: 1, name: 'Round 3' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
