import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { makePdf } from '@mapi/testing';

const tree = require('../../scripts/image-tree.js') as {
  DROP_FILE: RegExp;
  DROP_IN_PACKAGE: Record<string, (rel: string) => boolean>;
  PDF_PARSE_PDFJS: string;
  linkPackage: (from: string, to: string) => void;
  dropInPackage: (name: string) => ((rel: string) => boolean) | undefined;
};

const root = join(__dirname, '..', '..');

/** What scripts/image-tree.js leaves out of the image's node_modules, held to what the runtime loads. */
describe('the image tree drops only files the runtime never loads', () => {
  it("keeps the one pdf.js build pdf-parse's default loads, and pdf-parse still reads a PDF from the tree", async () => {
    const parser = readFileSync(join(root, 'node_modules/pdf-parse/lib/pdf-parse.js'), 'utf8');
    expect(parser).toContain(`version: '${tree.PDF_PARSE_PDFJS}'`);
    const out = mkdtempSync(join(tmpdir(), 'mapi-image-tree-'));
    try {
      // as the deps part lays them out: pdf-parse and what its pdf.js requires
      for (const name of ['pdf-parse', 'node-ensure']) tree.linkPackage(join(root, 'node_modules', name), join(out, 'node_modules', name));
      expect(readdirSync(join(out, 'node_modules/pdf-parse/lib/pdf.js'))).toEqual([tree.PDF_PARSE_PDFJS]);
      const parse = require(join(out, 'node_modules/pdf-parse/lib/pdf-parse.js')) as (data: Uint8Array) => Promise<{ text: string }>;
      // a plain Uint8Array, as extract-text.ts gives it (pdf.js clones its input; a pooled Buffer trips it)
      const pdf = Uint8Array.from(makePdf(['Read from the image tree']));
      expect((await parse(pdf)).text).toContain('Read from the image tree');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('keeps every @prisma/client runtime file the generated client requires', () => {
    const generated = join(root, 'libs/db/dist/generated');
    const wanted = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true }))
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else if (entry.name.endsWith('.js'))
          for (const [, spec] of readFileSync(join(dir, entry.name), 'utf8').matchAll(/require\("(@prisma\/client\/runtime\/[^"]+)"\)/g))
            wanted.add(spec);
    };
    walk(generated);
    expect([...wanted]).toContain('@prisma/client/runtime/client');
    const pkg = join(root, 'node_modules/@prisma/client');
    const drop = tree.DROP_IN_PACKAGE['@prisma/client'];
    for (const spec of wanted) {
      const rel = relative(pkg, require.resolve(spec, { paths: [generated] }));
      expect({ spec, rel, dropped: drop(rel) }).toEqual({ spec, rel, dropped: false });
    }
    for (const rel of ['runtime/client.mjs', 'runtime/query_compiler_small_bg.postgresql.js', 'runtime/client.sqlite.js'])
      expect({ rel, dropped: drop(rel) }).toEqual({ rel, dropped: true });
  });

  it('keeps the file require() loads of every @opentelemetry package, and drops their ES-module builds', () => {
    const scope = join(root, 'node_modules/@opentelemetry');
    const names = readdirSync(scope).map((n) => `@opentelemetry/${n}`);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const drop = tree.dropInPackage(name);
      expect(drop).toBeDefined();
      const rel = relative(join(root, 'node_modules', name), require.resolve(name, { paths: [root] }));
      expect({ name, rel, dropped: drop?.(rel) }).toEqual({ name, rel, dropped: false });
    }
    expect(tree.dropInPackage('@opentelemetry/api')?.('build/esm/index.js')).toBe(true);
    expect(tree.dropInPackage('@opentelemetry/api')?.('build/src/index.js')).toBe(false);
  });

  it('keeps the file require() loads of mqtt, and drops its browser bundles', () => {
    const rel = relative(join(root, 'node_modules/mqtt'), require.resolve('mqtt', { paths: [root] }));
    expect({ rel, dropped: tree.dropInPackage('mqtt')?.(rel) }).toEqual({ rel, dropped: false });
    expect(tree.dropInPackage('mqtt')?.('dist/mqtt.min.js')).toBe(true);
  });

  it('keeps the one file of node-wav that require() loads, and drops the test data it ships', () => {
    const rel = relative(join(root, 'node_modules/node-wav'), require.resolve('node-wav', { paths: [root] }));
    expect(rel).toBe('index.js');
    expect(readFileSync(join(root, 'node_modules/node-wav/index.js'), 'utf8')).not.toMatch(/require\(/);
    expect({ rel, dropped: tree.dropInPackage('node-wav')?.(rel) }).toEqual({ rel, dropped: false });
    for (const other of ['x.json', 'file.wav', 'x.js', 'tests/test.js'])
      expect({ other, dropped: tree.dropInPackage('node-wav')?.(other) }).toEqual({ other, dropped: true });
  });

  it('keeps the CommonJS build of rxjs that require() loads, and drops its ES-module builds and bundles', () => {
    for (const id of ['rxjs', 'rxjs/operators']) {
      const rel = relative(join(root, 'node_modules/rxjs'), require.resolve(id, { paths: [root] }));
      expect({ id, rel, dropped: tree.dropInPackage('rxjs')?.(rel) }).toEqual({ id, rel, dropped: false });
    }
    for (const rel of ['dist/esm/index.js', 'dist/esm5/index.js', 'dist/bundles/rxjs.umd.js'])
      expect({ rel, dropped: tree.dropInPackage('rxjs')?.(rel) }).toEqual({ rel, dropped: true });
  });

  it("drops dependencies' source maps, declarations and tests, never JavaScript or JSON", () => {
    for (const name of ['index.js.map', 'client.mjs.map', 'x.cjs.map', 'index.d.ts', 'index.d.ts.map', 'README.md', 'a.spec.js'])
      expect({ name, dropped: tree.DROP_FILE.test(name) }).toEqual({ name, dropped: true });
    for (const name of ['index.js', 'client.mjs', 'x.cjs', 'package.json', 'data.map.json', 'query.wasm', 'site.map'])
      expect({ name, dropped: tree.DROP_FILE.test(name) }).toEqual({ name, dropped: false });
  });
});
