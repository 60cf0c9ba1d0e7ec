import { join } from 'node:path';
import { importCycles, libSources, relativeImports } from './import-cycles';

const root = join(__dirname, '..', '..');

/**
 * Inside a library imports run one way: a type that two files both need lives in a third file below
 * them both, never in one of the two. Walks every lib's src (relative imports, `import type` and
 * re-exports included) and names each circle it finds.
 */
describe('no import circles inside a library', () => {
  it('reads every kind of relative import statement, and only those', () => {
    const text = [
      "import { a } from './a';",
      "import type { B } from '../b/b';",
      'import {',
      '  type C,',
      '  d,',
      "} from './c';",
      "import './side-effect';",
      "export * from './e';",
      "export type { F } from './f.js';",
      "import { Injectable } from '@nestjs/common';",
      "import { x } from '@mapi/contracts';",
      "// import { no } from './comment';",
      " * import { no } from './jsdoc';",
      'const s = "import { no } from \'./string\'";',
    ].join('\n');
    expect(relativeImports(text)).toEqual(['./a', '../b/b', './c', './side-effect', './e', './f.js']);
  });

  it('bites on a planted circle, type-only or not, and names it', () => {
    const planted = [
      { path: 'libs/x/src/a.ts', text: "import type { B } from './b';\nexport type A = B;" },
      { path: 'libs/x/src/b.ts', text: "import { c } from './sub/c';\nexport type B = string;" },
      { path: 'libs/x/src/sub/c.ts', text: "export * from '../a';\nexport const c = 1;" },
      { path: 'libs/x/src/d.ts', text: "import { c } from './sub';" },
      { path: 'libs/x/src/sub/index.ts', text: "export * from './c';\nimport '../d';" },
      { path: 'libs/x/src/ok.ts', text: "import { c } from './sub/c';\nimport { A } from './a';" },
    ];
    expect(importCycles(planted)).toEqual([
      'libs/x/src/a.ts → libs/x/src/b.ts → libs/x/src/sub/c.ts → libs/x/src/a.ts',
      'libs/x/src/d.ts → libs/x/src/sub/index.ts → libs/x/src/d.ts',
    ]);
  });

  it('finds none in any lib', () => {
    const files = libSources(root);
    expect(files.length).toBeGreaterThan(500);
    expect(importCycles(files)).toEqual([]);
  });
});
