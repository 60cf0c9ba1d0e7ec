import { readRepoFile, walkFiles } from './repo';

const isTestFile = (path: string) => /\.(spec|int-spec|e2e-spec)\.ts$/.test(path) || /(^|\/)testing\//.test(path);

/**
 * Every environment variable the apps read, found in the code itself so a new one cannot be
 * missed: the keys of the zod config objects (libs/<lib>/src/**\/config*.ts or *-config.ts, apps likewise, and
 * schemas built per prefix), and every `process.env.NAME` in production sources. Test-only
 * variables (TEST_*) are left out. Node's own NODE_OPTIONS counts too: the importer's manifests set
 * its heap cap there (docs/benchmarks.md, Import), so it is documented like any setting.
 */
export function settingsInCode(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (name: string, file: string) => {
    if (name.startsWith('TEST_')) return;
    found.set(name, [...new Set([...(found.get(name) ?? []), file])]);
  };
  add('NODE_OPTIONS', "node itself (the importer's heap cap)");
  const sources = [...walkFiles('libs', (p) => p.endsWith('.ts')), ...walkFiles('apps', (p) => p.endsWith('.ts'))]
    .filter((p) => /^(libs|apps)\/[^/]+\/src\//.test(p) && !p.includes('/generated/') && !isTestFile(p))
    .map((file) => ({ file, text: readRepoFile(file) }));
  // Schemas made per prefix (`storageConfigSchema('MEDIA_')` with keys `${prefix}STORAGE_ROOT`).
  const prefixed = new Map<string, string[]>();
  for (const { text } of sources) {
    for (const fn of text.matchAll(/function (\w+)\(prefix: string\)/g)) {
      prefixed.set(
        fn[1],
        [...text.matchAll(/\[`\$\{prefix\}([A-Z0-9_]+)`\]/g)].map((m) => m[1]),
      );
    }
  }
  for (const { file, text } of sources) {
    for (const m of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)|process\.env\[['"]([A-Z][A-Z0-9_]*)['"]\]/g)) add(m[1] ?? m[2], file);
    if (/[/-]config[^/]*\.ts$/.test(file) && /z\s*\.object\(/.test(text)) {
      // `NAME: z.string()…`, `NAME: int(…)`, `NAME: z\n  .string()`: a key whose value is a call.
      for (const m of text.matchAll(/(?:^|[{,])\s*([A-Z][A-Z0-9_]*[A-Z0-9])\s*:\s*[A-Za-z_][\w.\s]*\(/gm)) add(m[1], file);
    }
    for (const [fn, suffixes] of prefixed) {
      for (const call of text.matchAll(new RegExp(`\\b${fn}\\(\\s*'([A-Z0-9_]*)'\\s*\\)`, 'g')))
        suffixes.forEach((suffix) => add(call[1] + suffix, file));
    }
  }
  return found;
}

/** Variables named in the first column of docs/operations.md's configuration tables. */
export function settingsInOperationsDoc(): Set<string> {
  const names = new Set<string>();
  for (const line of readRepoFile('docs/operations.md').split('\n')) {
    const firstCell = /^\|([^|]*)\|/.exec(line)?.[1] ?? '';
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]);
  }
  return names;
}
