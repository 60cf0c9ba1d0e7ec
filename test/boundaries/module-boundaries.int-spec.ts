import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { allowed, deepPaths, DEEP_PATH_RULE, violations } from './boundary-cases';

/**
 * Proves that the module boundaries in eslint.config.mjs bite: code snippets are linted, through
 * ESLint's Node API and the real root config, as if they were files inside real projects, and
 * forbidden imports must come back as @nx/enforce-module-boundaries errors while allowed ones must
 * not. The linting runs in a plain Node child process (test/boundaries/lint-snippets.mjs) because
 * Jest's module VM cannot import() an ES-module flat config.
 *
 * The child gets an empty NX_WORKSPACE_DATA_DIRECTORY, i.e. no cached project graph, like a fresh
 * clone or CI checkout. The rule silently skips itself without one, so passing here also proves the
 * config builds the graph itself (in-process: NX_DAEMON=false, no network).
 */

const ROOT = resolve(__dirname, '..', '..');
const RULE = '@nx/enforce-module-boundaries';

interface LintMessage {
  ruleId: string | null;
  severity: number;
  message: string;
  line: number;
  fatal: boolean;
}
type RuleEntry = [severity: number, options: { depConstraints: { sourceTag: string; onlyDependOnLibsWithTags: string[] }[] }];
interface Output {
  cases: { filePath: string; messages: LintMessage[] }[];
  configs: { filePath: string; rule: RuleEntry | null }[];
  files: { filePath: string; messages: LintMessage[] }[];
}

const PRODUCTION_FILE = 'libs/chats-feature/src/x.ts';
const TEST_FILE = 'libs/chats-feature/src/x.spec.ts';
const BENCH_FILE = 'bench/chats/x.js';

let dataDir: string;
let out: Output;
let childStdout = '';

function runLinter(input: object): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [join(__dirname, 'lint-snippets.mjs')], {
      cwd: ROOT,
      env: { ...process.env, NX_DAEMON: 'false', NX_WORKSPACE_DATA_DIRECTORY: dataDir, NX_NO_CLOUD: 'true' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (childStdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    // It lints all of apps/ and libs/ (a minute or more on two busy cores).
    const timer = setTimeout(() => child.kill('SIGKILL'), 170_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise();
      else reject(new Error(`lint-snippets exited ${code ?? signal}:\n${stderr}\n${childStdout}`));
    });
    child.stdin.end(JSON.stringify(input));
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mapi-boundaries-'));
  const outFile = join(dataDir, 'lint-result.json');
  await runLinter({
    cwd: ROOT,
    out: outFile,
    cases: [...violations, ...allowed, ...deepPaths].map(({ filePath, code }) => ({ filePath, code })),
    configFor: [PRODUCTION_FILE, TEST_FILE, BENCH_FILE],
    lintFiles: ['apps', 'libs', 'bench'],
    // Only the boundary rules run: every check below reads their messages (and fatal parse errors,
    // which the parser reports whatever rules run); the config's other rules are for `npm run lint`.
    onlyRule: [RULE, DEEP_PATH_RULE],
  });
  out = JSON.parse(readFileSync(outFile, 'utf8')) as Output;
}, 180_000);

afterAll(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const boundaryMessages = (messages: LintMessage[]) => messages.filter((m) => m.ruleId === RULE);
const deepPathMessages = (messages: LintMessage[]) => messages.filter((m) => m.ruleId === DEEP_PATH_RULE);
const resultFor = (index: number) => out.cases[index].messages;
const ruleFor = (filePath: string) => out.configs.find((c) => c.filePath === filePath)?.rule ?? null;
const allowedTags = (filePath: string, sourceTag: string) =>
  ruleFor(filePath)?.[1].depConstraints.find((c) => c.sourceTag === sourceTag)?.onlyDependOnLibsWithTags;

describe('module boundaries (@nx/enforce-module-boundaries via eslint.config.mjs)', () => {
  it('ran against a project graph the config built itself (no cached graph was available)', () => {
    expect(childStdout).not.toMatch(/No cached ProjectGraph/);
    expect(existsSync(join(dataDir, 'project-graph.json'))).toBe(true);
  });

  describe('forbidden imports are errors', () => {
    it.each(violations.map((v, i) => ({ ...v, index: i })))('$name', ({ index, message }) => {
      const messages = resultFor(index);
      expect(messages.filter((m) => m.fatal)).toEqual([]);
      const boundary = boundaryMessages(messages);
      expect(boundary).toHaveLength(1);
      expect(boundary[0].severity).toBe(2);
      expect(boundary[0].message).toMatch(message);
    });
  });

  describe('allowed imports produce no boundary error', () => {
    it.each(allowed.map((a, i) => ({ ...a, index: violations.length + i })))('$name', ({ index }) => {
      const messages = resultFor(index);
      expect(messages.filter((m) => m.fatal)).toEqual([]);
      expect(boundaryMessages(messages)).toEqual([]);
      expect(deepPathMessages(messages)).toEqual([]);
    });
  });

  describe('bench/ reaching into a library’s build is an error', () => {
    it.each(deepPaths.map((v, i) => ({ ...v, index: violations.length + allowed.length + i })))('$name', ({ index, message }) => {
      const messages = resultFor(index);
      expect(messages.filter((m) => m.fatal)).toEqual([]);
      expect(boundaryMessages(messages)).toEqual([]);
      const deep = deepPathMessages(messages);
      expect(deep).toHaveLength(1);
      expect(deep[0].severity).toBe(2);
      expect(deep[0].message).toMatch(message);
    });
  });

  it('bench/ (type:bench, scope:bench) may use every library type but apps and tooling, of every scope', () => {
    expect(ruleFor(BENCH_FILE)?.[0]).toBe(2);
    expect(allowedTags(BENCH_FILE, 'type:bench')).toEqual(['type:feature', 'type:platform', 'type:contracts', 'type:data', 'type:testing']);
    const benchScopes = allowedTags(BENCH_FILE, 'scope:bench');
    expect(benchScopes).toEqual(expect.arrayContaining(['scope:shared', 'scope:chats', 'scope:queue', 'scope:media', 'scope:automation']));
    expect(benchScopes).not.toContain('scope:bench');
  });

  it('is an error-level rule; only test files may depend on type:testing', () => {
    expect(ruleFor(PRODUCTION_FILE)?.[0]).toBe(2);
    expect(ruleFor(TEST_FILE)?.[0]).toBe(2);
    for (const sourceTag of ['type:app', 'type:feature', 'type:platform', 'type:contracts', 'type:data']) {
      expect(allowedTags(PRODUCTION_FILE, sourceTag)).toBeDefined();
      expect(allowedTags(PRODUCTION_FILE, sourceTag)).not.toContain('type:testing');
      expect(allowedTags(TEST_FILE, sourceTag)).toContain('type:testing');
    }
    expect(allowedTags(PRODUCTION_FILE, 'type:contracts')).toEqual(['type:contracts']);
    expect(allowedTags(PRODUCTION_FILE, 'type:data')).toEqual(['type:data', 'type:contracts']);
  });

  it('confines every service scope, including future ones, to itself and scope:shared', () => {
    const scopes = [
      'gateway',
      'chats',
      'admin',
      'phones',
      'groups',
      'queue',
      'knowledge-base',
      'webhooks',
      'media',
      'inbox',
      'members',
      'automation',
      'importer',
    ];
    for (const file of [PRODUCTION_FILE, TEST_FILE]) {
      for (const scope of scopes) {
        expect(allowedTags(file, `scope:${scope}`)).toEqual([`scope:${scope}`, 'scope:shared']);
      }
      expect(allowedTags(file, 'scope:shared')).toEqual(['scope:shared']);
    }
  });

  it('the current apps/, libs/ and bench/ respect the boundaries', () => {
    expect(out.files.length).toBeGreaterThan(10);
    expect(out.files.some((f) => f.filePath.startsWith(join(ROOT, 'bench') + '/'))).toBe(true);
    const violationsInTree = out.files.flatMap((f) =>
      [...boundaryMessages(f.messages), ...deepPathMessages(f.messages)].map(
        (m) => `${f.filePath.slice(ROOT.length + 1)}:${m.line} ${m.message}`,
      ),
    );
    expect(violationsInTree).toEqual([]);
  });
});
